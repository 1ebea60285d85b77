// esbuild bundles imported CSS into the hashed stylesheet that index.html links.
declare module '*.css';
