// Prints the gzip size of the JavaScript the /login page loads: the entry,
// its static imports, and the login page's chunk with its static imports.
// Usage: node e2e/login-js-size.mjs [outdir]   (after `node build.mjs [outdir]`)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const LOGIN_PAGE = 'src/features/auth/LoginPage.tsx';
export const LOGIN_JS_BUDGET_BYTES = 250 * 1024;

/** Files (paths as in the metafile, relative to `workdir`) and their total gzip size. */
export function loginPageJs(metafile, workdir) {
  const outputs = metafile.outputs;
  const files = new Set();
  const visit = (file) => {
    if (files.has(file) || !file.endsWith('.js')) return;
    files.add(file);
    for (const imported of outputs[file].imports) {
      if (imported.kind === 'import-statement') visit(imported.path);
    }
  };
  for (const [file, output] of Object.entries(outputs)) {
    if (output.entryPoint === 'src/main.tsx' || output.entryPoint === LOGIN_PAGE) visit(file);
  }
  const gzipBytes = [...files].reduce(
    (sum, file) => sum + gzipSync(readFileSync(path.resolve(workdir, file)), { level: 9 }).length,
    0,
  );
  return { files: [...files], gzipBytes };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const outdir = path.resolve(process.argv[2] ?? path.join(here, 'dist'));
  const metafile = JSON.parse(readFileSync(`${outdir}.meta.json`, 'utf8'));
  const { files, gzipBytes } = loginPageJs(metafile, here);
  for (const file of files) console.log(`  ${file}`);
  const ok = gzipBytes <= LOGIN_JS_BUDGET_BYTES;
  console.log(`/login JS: ${(gzipBytes / 1024).toFixed(1)} KB gzip (budget 250 KB) ${ok ? 'OK' : 'OVER BUDGET'}`);
  process.exitCode = ok ? 0 : 1;
}
