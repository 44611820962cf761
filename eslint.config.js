import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
      'node_modules',
      'data',
      '.tmp',
      'src/api/schema.gen.ts',
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
