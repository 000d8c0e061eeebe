/** The exchange-rates front door for code outside workers/ (the seed scripts): the rates CLI and the demo rates file. */
export { runFxCli } from './cli.ts';
export { DEMO_RATES_FILE } from '@cc/shared/adapters/fx-rates/from-config.ts';
