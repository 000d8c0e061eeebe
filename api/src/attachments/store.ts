/**
 * The attachment store of the configuration, one for api and workers (shared/src/adapters/attachment-store/). The
 * tickets route module still imports it from here; it goes once that module imports the shared one.
 */
export { attachmentStoreFromConfig, uploadSigningKey } from '@cc/shared/adapters/attachment-store/from-config.ts';
