// The repo's own lint rules fail on a violation: each import a zone forbids is linted with the real
// config (eslint.config.js), as if the file existed at that path.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

describe('import zones (eslint.config.js)', () => {
  it.each([
    ['server/src/probe.ts', "import { x } from '../../src/lib/urls.ts';"],
    ['server/src/store/probe.ts', "import { x } from '../../../src/api/client.ts';"],
    ['server/src/probe.ts', "import { x } from '../../test/support/prng.ts';"],
    ['server/test/probe.test.ts', "import { x } from '../../src/lib/urls.ts';"],
    ['shared/formats/probe.ts', "import { x } from '../../src/lib/urls.ts';"],
    ['shared/formats/probe.ts', "import { x } from '../../server/src/config.ts';"],
    ['bench/probe.ts', "import { x } from '../src/lib/urls.ts';"],
    ['e2e/probe.spec.ts', "import { x } from '../src/api/client.ts';"],
    ['test/support/probe.ts', "import { x } from '../../src/lib/urls.ts';"],
    ['src/lib/probe.ts', "import { x } from '../../server/src/config.ts';"],
    ['src/features/upload/probe.ts', "import { x } from '../../test/uploads.ts';"],
    ['src/features/upload/probe.ts', "import { x } from '../../../test/support/prng.ts';"],
  ])('%s may not run %s', async (file, code) => {
    expect(await problems(file, `${code}\nexport const y = x;\n`)).toEqual([
      expect.stringMatching(/^folio\/import-zones: /),
    ]);
  });

  it.each([
    ['server/src/probe.ts', "import { x } from '../../shared/formats/mhtml.ts';"],
    ['server/test/probe.test.ts', "import { x } from '../../test/support/prng.ts';"],
    ['src/lib/probe.ts', "import { x } from '../../shared/formats/mhtml.ts';"],
    ['e2e/probe.spec.ts', "import { x } from '../src/lib/display.ts';"],
    ['src/features/upload/probe.test.ts', "import { x } from '../../test/uploads.ts';"],
  ])('%s may run %s', async (file, code) => {
    expect(await problems(file, `${code}\nexport const y = x;\n`)).toEqual([]);
  });
});
