// The no-cycle rule (scripts/eslint-plugin-folio.js) fails on a circle of imports, on real files.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { folioPlugin } from '../scripts/eslint-plugin-folio.js';

const eslint = new ESLint();

describe('no import cycles (folio/no-cycle)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-no-cycle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function lint(files: Record<string, string>, entry: string): string[] {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const linter = new Linter({ cwd: dir });
    const messages = linter.verify(
      files[entry] ?? '',
      [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser as Linter.Parser },
          plugins: { folio: folioPlugin },
          rules: { 'folio/no-cycle': 'error' },
        },
      ],
      join(dir, entry),
    );
    return messages.map((message) => message.message);
  }

  it('reports a circle of three, type-only imports included', () => {
    const messages = lint(
      {
        'keys.ts': "import type { Input } from './preview.ts';\nexport type K = Input;\n",
        'preview.ts': "import { list } from './list.ts';\nexport type Input = string;\nlist();\n",
        'list.ts': "import type { K } from './keys.ts';\nexport function list(): K | void {}\n",
      },
      'keys.ts',
    );
    expect(messages).toEqual([
      expect.stringContaining('Import cycle: keys.ts -> preview.ts -> list.ts -> keys.ts'),
    ]);
  });

  it('accepts the same modules once the shared type has its own file', () => {
    const messages = lint(
      {
        'types.ts': 'export type Input = string;\n',
        'keys.ts': "import type { Input } from './types.ts';\nexport type K = Input;\n",
        'preview.ts': "import { list } from './list.ts';\nlist();\n",
        'list.ts': "import type { K } from './keys.ts';\nexport function list(): K | void {}\n",
      },
      'keys.ts',
    );
    expect(messages).toEqual([]);
  });

  it('does not count a dynamic import (a lazy part)', () => {
    const messages = lint(
      {
        'a.ts': "import { b } from './b.ts';\nexport const a = b;\n",
        'b.ts': "export const b = 1;\nexport const later = () => import('./a.ts');\n",
      },
      'a.ts',
    );
    expect(messages).toEqual([]);
  });

  it('is on for every TypeScript file of the repo', async () => {
    for (const file of ['src/lib/urls.ts', 'server/src/app.ts', 'shared/formats/mhtml.ts']) {
      const config = (await eslint.calculateConfigForFile(file)) as Linter.Config;
      expect(config.rules?.['folio/no-cycle'], file).toEqual([2]);
    }
  });
});
