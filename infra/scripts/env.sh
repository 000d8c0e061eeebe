# Sourced by the shell scripts: a setting as shared/src/config.ts sees it (environment over .env, then the default).
# Plain node, no packages: services.sh runs before `npm ci` on a fresh clone.
config_value() {
  node -e '
    const fs = require("node:fs"), { parseEnv } = require("node:util");
    const [name, fallback] = process.argv.slice(1);
    let file = {};
    try { file = parseEnv(fs.readFileSync(".env", "utf8")); } catch (err) { if (err.code !== "ENOENT") throw err; }
    const value = process.env[name] !== undefined ? process.env[name] : file[name];
    console.log(value === undefined || value === "" ? fallback : value);' "$1" "$2"
}
