// Azurite's express 4 calls content-disposition as a function (its 0.5 API); the project pins content-disposition 2
// (package.json overrides: its Node 20 major), whose function is `create`. Loaded with --require into the Azurite
// child process only, this gives express the shape it expects, so Azurite runs unchanged.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS preload, loaded with --require
const Module = require('node:module');
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const loaded = load.call(this, request, parent, isMain);
  if (request === 'content-disposition' && typeof loaded !== 'function' && typeof loaded.create === 'function') {
    const fn = (...args) => loaded.create(...args);
    fn.parse = loaded.parse;
    return fn;
  }
  return loaded;
};
