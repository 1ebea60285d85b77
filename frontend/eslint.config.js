// ESLint (flat config), run by `make test` with --max-warnings 0.
// The import rules keep dependencies one way: main → app → features → shared layers
// (lib, api, components); a feature never imports another feature, nothing but main.tsx
// and app itself imports app, and the shared layers never import a feature.
import { readdirSync } from 'node:fs';
import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import globals from 'globals';
import { configs as ts } from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const sharedLayers = ['./src/lib', './src/api', './src/components', './src/test'];

export default defineConfig(
  { ignores: ['node_modules/', 'dist/', 'test-results/', 'playwright-report/', 'src/api/schema.d.ts'] },
  js.configs.recommended,
  ts.recommended,
  importX.flatConfigs.recommended,
  importX.flatConfigs.typescript,
  // Hooks rules for the React code only (Playwright's fixtures also call a function named `use`).
  { files: ['src/**/*.{ts,tsx}'], extends: [reactHooks.configs.flat.recommended] },
  // Build scripts, configs and the browser tests run on Node.
  { files: ['*.{js,mjs,ts}', 'e2e/**'], languageOptions: { globals: globals.node } },
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      // `const { id: _id, ...rest } = row` is how a field is left out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...features.map((feature) => ({
              target: `./src/features/${feature}`,
              from: './src/features',
              except: [`./${feature}`],
              message: 'A feature never imports another feature: move what both need to src/lib.',
            })),
            {
              target: ['./src/features', ...sharedLayers],
              from: './src/app',
              message: 'Only main.tsx and src/app import src/app: shared code lives in src/lib.',
            },
            {
              target: sharedLayers,
              from: './src/features',
              message: 'Shared layers never import a feature.',
            },
          ],
        },
      ],
    },
  },
);
