/** /inventory?asset=<name> opens the inventory table filtered by that asset name: where a graph node leads. */
const PARAM = 'asset';

export const assetListHref = (assetName: string) => `/inventory?${new URLSearchParams({ [PARAM]: assetName }).toString()}`;

/** The filter a location's query string asks for ('' for none). */
export const assetFilterOf = (search: string) => new URLSearchParams(search).get(PARAM) ?? '';
