import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { folioPlugin } from './scripts/eslint-plugin-folio.js';

// Dependencies point one way: lib, components, api -> features -> routes, and a feature never
// imports another (routes compose them). Imports are relative, so a boundary is a path segment.
const features = readdirSync('src/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Forbids imports whose path goes through any of `segments`. */
function forbidSegments(files, segments, message) {
  return {
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: `(^|/)(${segments.join('|')})/`, message }] },
      ],
    },
  };
}

const boundaries = [
  forbidSegments(
    ['src/lib/**'],
    ['api', 'components', 'features', 'routes'],
    'lib is framework-free: it imports nothing from api, components, features or routes.',
  ),
  forbidSegments(
    ['src/api/**'],
    ['components', 'features', 'routes'],
    'api imports only from lib.',
  ),
  forbidSegments(
    ['src/components/**'],
    ['features', 'routes'],
    'Shared components import no feature and no route.',
  ),
  ...features.map((feature) =>
    forbidSegments(
      [`src/features/${feature}/**`],
      ['routes', ...features.filter((other) => other !== feature)],
      'A feature imports no other feature and no route: compose them in src/routes.',
    ),
  ),
];

// Each top-level folder imports only from the folders its zone allows, decided on the resolved
// path (scripts/eslint-plugin-folio.js). shared/ is the neutral home of what the app and the server
// both use (the format parsers, the generated contract types, the webpage field lengths): the
// server never imports the app's tree. Test code may also use test/support.
const TESTS = ['**/*.test.ts', '**/*.test.tsx', '**/test/**'];

/**
 * Files under `files` (minus `ignores`) import only from `allowed` minus `forbidden` (repo-relative
 * folders or files). For one file the last matching zone applies.
 */
function zone(files, allowed, message, { ignores = [], forbidden = [] } = {}) {
  return {
    files,
    ignores,
    plugins: { folio: folioPlugin },
    rules: { 'folio/import-zones': ['error', { allowed, forbidden, message }] },
  };
}

const zones = [
  zone(
    ['src/**/*.{ts,tsx}'],
    ['src', 'shared', 'test/support', 'package.json'],
    'The app imports only src/ and shared/ (tests: test/support too).',
  ),
  zone(
    ['src/**/*.{ts,tsx}'],
    ['src', 'shared', 'package.json'],
    "The app's code imports no test double: they live in src/test/ for tests only.",
    { ignores: TESTS, forbidden: ['src/test'] },
  ),
  zone(
    ['shared/**/*.ts'],
    ['shared', 'test/support'],
    'shared/ imports only shared/ (tests: test/support too).',
  ),
  zone(
    ['shared/**/*.ts'],
    ['shared'],
    'shared/ imports only shared/: it is used by both the app and the server.',
    { ignores: TESTS },
  ),
  zone(
    ['server/**/*.ts'],
    ['server', 'shared', 'test/support'],
    'The server imports only server/ and shared/ (tests: test/support too), never src/.',
  ),
  zone(
    ['server/**/*.ts'],
    ['server', 'shared'],
    'The server imports only server/ and shared/, never src/ or test code.',
    { ignores: TESTS },
  ),
  zone(
    ['bench/**/*.ts'],
    ['bench', 'server', 'shared', 'test/support'],
    'bench/ drives the server: it imports server/, shared/ and test/support, never src/.',
  ),
  zone(
    ['e2e/**/*.ts'],
    [
      'e2e',
      'shared',
      'test/support',
      'src/lib',
      'server/build.ts',
      'scripts',
      'playwright.config.ts',
    ],
    'e2e/ drives the built app in a browser: it imports shared/, test/support, the framework-free src/lib and the builds (server/build.ts, scripts/) only.',
  ),
  zone(
    ['test/**/*.ts'],
    ['test', 'server', 'shared', 'scripts'],
    'test/ (shared test support) imports server/, shared/ and scripts/, never src/.',
  ),
];

const noDefaultExport = {
  'no-restricted-syntax': [
    'error',
    { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' },
    {
      selector: 'ExportSpecifier[exported.name="default"]',
      message: 'Use named exports.',
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-extension',
      'server/dist',
      'server/dist-test',
      'server/dist-e2e',
      'node_modules',
      'data',
      '.tmp',
      'shared/contract/schema.gen.ts',
      'test-results',
      'playwright-report',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      ...noDefaultExport,
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // No module reaches itself through its imports (scripts/eslint-plugin-folio.js).
    files: ['**/*.{ts,tsx}'],
    plugins: { folio: folioPlugin },
    rules: { 'folio/no-cycle': 'error' },
  },
  {
    // Config files (and the set-up a config names) are loaded by tools that expect a default export.
    files: ['*.config.ts', '*.config.js', 'e2e/support/global-setup.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y, '@tanstack/query': pluginQuery },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      ...pluginQuery.configs.recommended.rules,
    },
  },
  ...boundaries,
  ...zones,
  {
    files: [
      'server/**/*.ts',
      'e2e/**/*.ts',
      'test/**/*.ts',
      'bench/**/*.ts',
      'scripts/**/*.ts',
      '*.config.{ts,js}',
    ],
    languageOptions: { globals: { ...globals.node } },
  },
);
