/** The exchange-rate source of FX_RATES: local (a rates CSV file, default the demo rates) or ecb (the ECB's files). */
import type { Config } from '@cc/shared/config.ts';
import type { FxRatesSource } from '@cc/shared/ports/fx-rates.ts';
import { ecbRatesSource } from './ecb.ts';
import { localRatesSource } from './local.ts';

export function fxRatesFromConfig(config: Pick<Config, 'FX_RATES' | 'FX_RATES_FILE' | 'ECB_RATES_URL'>): FxRatesSource {
  return config.FX_RATES === 'ecb' ? ecbRatesSource(config.ECB_RATES_URL) : localRatesSource(config.FX_RATES_FILE);
}
