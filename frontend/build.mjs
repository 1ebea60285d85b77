// Builds the single-page app: `node build.mjs [outdir]` (default: frontend/dist).
// Rust's build.rs runs it with $OUT_DIR/ui and embeds that folder; the server
// serves index.html for every non-API, non-asset path, so asset URLs are absolute.
import { build } from 'esbuild';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loginPageJs } from './e2e/login-js-size.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const outdir = path.resolve(process.argv[2] ?? path.join(here, 'dist'));
// `--gzip` (build.rs, for the binary): files kept gzipped, see gzipInPlace.
const gzipped = process.argv.includes('--gzip');
// The metafile sits beside the output folder, so it is not embedded in the binary.
const metafilePath = `${outdir}.meta.json`;

await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });

const result = await build({
  absWorkingDir: here,
  entryPoints: { main: 'src/main.tsx' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022', 'chrome111', 'edge111', 'firefox115', 'safari16.4'],
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  jsx: 'automatic',
  entryNames: '[name]-[hash]',
  chunkNames: 'chunks/[name]-[hash]',
  assetNames: 'assets/[name]-[hash]',
  publicPath: '/',
  define: { 'process.env.NODE_ENV': '"production"' },
  metafile: true,
  logLevel: 'warning',
});

const entry = Object.entries(result.metafile.outputs).find(([, output]) => output.entryPoint === 'src/main.tsx');
if (!entry) throw new Error('esbuild produced no entry chunk');
const [entryFile, entryOutput] = entry;
const url = (file) => `/${path.relative(outdir, path.resolve(here, file)).split(path.sep).join('/')}`;

// No inline script: the CSP is `script-src 'self'`.
const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light" />
    <title>MentorPay</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
${entryOutput.cssBundle ? `    <link rel="stylesheet" href="${url(entryOutput.cssBundle)}" />\n` : ''}    <script type="module" src="${url(entryFile)}"></script>
  </head>
  <body>
    <noscript>MentorPay needs JavaScript.</noscript>
    <div id="root"></div>
  </body>
</html>
`;
await writeFile(path.join(outdir, 'index.html'), html);
await copyFile(path.join(here, 'public/favicon.svg'), path.join(outdir, 'favicon.svg'));
await writeFile(metafilePath, JSON.stringify(result.metafile));
await buildApiDocs(path.join(outdir, 'docs'));

const login = loginPageJs(result.metafile, here);
console.log(
  `built ${outdir}: ${Object.keys(result.metafile.outputs).length} files; ` +
    `/login loads ${login.files.length} JS files, ${(login.gzipBytes / 1024).toFixed(1)} KB gzip`,
);
if (gzipped) await gzipInPlace(outdir);

/** Every file but index.html that gzip makes at least a tenth smaller is kept as `name.gz`
 * only: the server sends it as it is to browsers (they all accept gzip) and unpacks it for a
 * client that does not, so the binary carries a quarter of the bytes and no request compresses
 * the same file again. index.html stays plain: the server reads it for every deep link. */
async function gzipInPlace(dir, top = true) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) await gzipInPlace(file, false);
    if (!entry.isFile() || (top && entry.name === 'index.html')) continue;
    const data = await readFile(file);
    const packed = gzipSync(data, { level: 9 });
    if (packed.length > data.length * 0.9) continue;
    await writeFile(`${file}.gz`, packed);
    await rm(file);
  }
}

/** The API docs page (/api/docs/): Swagger UI from the npm package, only the files it
 * needs, with the initializer as a file (CSP: no inline script). Loads nothing from outside. */
async function buildApiDocs(dir) {
  const dist = path.join(here, 'node_modules/swagger-ui-dist');
  await mkdir(dir, { recursive: true });
  for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png']) {
    await copyFile(path.join(dist, file), path.join(dir, file));
  }
  await writeFile(
    path.join(dir, 'initializer.js'),
    `window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#swagger-ui', deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis], layout: 'BaseLayout', validatorUrl: null, tryItOutEnabled: false });\n`,
  );
  await writeFile(
    path.join(dir, 'index.html'),
    `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>MentorPay API</title>
    <link rel="icon" href="/api/docs/favicon-32x32.png" />
    <link rel="stylesheet" href="/api/docs/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/api/docs/swagger-ui-bundle.js"></script>
    <script src="/api/docs/initializer.js"></script>
  </body>
</html>
`,
  );
}
