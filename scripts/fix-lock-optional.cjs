#!/usr/bin/env node
// Usage: node scripts/fix-lock-optional.cjs package-lock.json   (run after every npm install that changes the lock)
// Adds lock entries for optional platform binaries the registry here does not carry, tagged with
// their os/cpu so npm ci skips them on Linux instead of calling the lock out of sync.
const fs = require('fs');
const file = process.argv[2];
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const pk = lock.packages;
const platform = {
  'android-arm64': [['android'], ['arm64']], 'darwin-arm64': [['darwin'], ['arm64']], 'darwin-x64': [['darwin'], ['x64']],
  'freebsd-x64': [['freebsd'], ['x64']], 'linux-arm-gnueabihf': [['linux'], ['arm']], 'linux-arm64-gnu': [['linux'], ['arm64']],
  'linux-arm64-musl': [['linux'], ['arm64']], 'wasm32-wasi': [null, ['wasm32']], 'win32-arm64-msvc': [['win32'], ['arm64']], 'win32-x64-msvc': [['win32'], ['x64']],
};
let added = 0;
for (const [key, entry] of Object.entries(pk)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies || {})) {
    const base = key ? `${key}/node_modules/` : 'node_modules/';
    if (pk[`node_modules/${dep}`] || pk[`${base}${dep}`]) continue;
    const suffix = Object.keys(platform).find((s) => dep.endsWith(s));
    if (!suffix) { console.error(`missing optional ${dep} (no platform suffix known)`); continue; }
    const [os, cpu] = platform[suffix];
    pk[`node_modules/${dep}`] = { version, ...(cpu ? { cpu } : {}), ...(os ? { os } : {}), optional: true };
    added++;
  }
}
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`added ${added} entries`);
