// ESLint (flat config): type-aware typescript-eslint rules for all TypeScript (server, web, domain, e2e, bench,
// config files) and the React hooks rules for the web app. `npm run lint` runs it together with `prettier --check`.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['dist/', 'data/', 'test-results/', 'playwright-report/', 'bench/results/', '.tmp/']),
  {
    linterOptions: {
      // An eslint-disable comment that no longer silences anything is reported, so the remaining ones stay meaningful.
      reportUnusedDisableDirectives: 'error',
    },
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        // The type information comes from tsconfig.json (src, e2e, bench and the root *.ts config files).
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A name starting with an underscore is deliberately unused (a placeholder argument or a skipped element).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // React ignores what an event handler returns: an async onClick/onSubmit is fine as long as it handles its own
      // errors (ours show them in the form). Promises passed anywhere else where nothing awaits them are still errors.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // Left out on purpose: request records, database rows and JSON bodies are loosely typed (`any`, or `unknown`
      // values read by field name) all through the code base, and String()/template use of those scalar values is
      // intended. These rules would flag about 2,400 such places without finding bugs; typing the records is a
      // separate piece of work.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      // Fastify plugins must be async functions (or take a callback) even when they await nothing, and test doubles
      // of promise-returning APIs are async without awaiting: an `async` without `await` is not a mistake here.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Plain JavaScript files are outside tsconfig.json: the usual rules without type information.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
