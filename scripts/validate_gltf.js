#!/usr/bin/env node
// Validates glTF/GLB files with the Khronos validator (npm gltf-validator,
// pinned in package.json). Exit 0 when every file has 0 errors, 1 when any
// has errors, 2 on usage or unreadable input. Prints one summary line a file.
'use strict';
const fs = require('fs');
const path = require('path');
let validator;
try {
  validator = require('gltf-validator');
} catch (e) {
  console.error('validate_gltf: gltf-validator not installed; run npm ci in scripts/');
  process.exit(2);
}

async function validate(file) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const report = await validator.validateBytes(bytes, {
    uri: path.basename(file),
    maxIssues: 0,
    externalResourceFunction: (uri) => new Promise((resolve, reject) => {
      const p = path.resolve(path.dirname(file), decodeURIComponent(uri));
      fs.readFile(p, (err, data) => err ? reject(err.toString()) : resolve(new Uint8Array(data)));
    }),
  });
  const i = report.issues;
  console.log(`${file}: ${i.numErrors} errors, ${i.numWarnings} warnings, ${i.numInfos} infos`);
  for (const m of i.messages.filter((x) => x.severity === 0).slice(0, 20)) {
    console.log(`  error ${m.code} at ${m.pointer || ''}: ${m.message}`);
  }
  return i.numErrors;
}

(async () => {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    console.error('usage: validate_gltf.js FILE.glb|FILE.gltf...');
    process.exit(2);
  }
  let errors = 0;
  for (const f of files) {
    try {
      errors += await validate(f);
    } catch (e) {
      console.error(`validate_gltf: ${f}: ${e}`);
      process.exit(2);
    }
  }
  process.exit(errors > 0 ? 1 : 0);
})();
