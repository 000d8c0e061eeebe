/** The exchange-rate source of FX_RATES: local (a rates CSV file, default the demo rates) or ecb (the ECB's files). */
import type { Config } from '../../config.ts';
import type { FxRatesSource } from '../../ports/fx-rates.ts';
import { ecbRatesSource } from './real.ts';
import { localRatesSource } from './local.ts';

/** The seed scripts load the demo rates file by name. */
export { DEMO_RATES_FILE } from './local.ts';

export function fxRatesFromConfig(config: Pick<Config, 'FX_RATES' | 'FX_RATES_FILE' | 'ECB_RATES_URL'>): FxRatesSource {
  return config.FX_RATES === 'ecb' ? ecbRatesSource(config.ECB_RATES_URL) : localRatesSource(config.FX_RATES_FILE);
}
