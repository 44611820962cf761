import { describe, expect, it } from 'vitest';
import { firstScreen, type Manifest } from './bundle.ts';

describe('firstScreen', () => {
  it('follows static imports from the entry, leaves dynamic imports out, and collects their CSS', () => {
    const manifest: Manifest = {
      'index.html': {
        file: 'assets/index-AAAAAAAA.js',
        isEntry: true,
        imports: ['_vendor-BBBBBBBB.js'],
        dynamicImports: ['src/routes/detail.tsx'],
        css: ['assets/index-CCCCCCCC.css'],
      },
      '_vendor-BBBBBBBB.js': { file: 'assets/vendor-BBBBBBBB.js', imports: ['index.html'] },
      'src/routes/detail.tsx': {
        file: 'assets/detail-DDDDDDDD.js',
        isDynamicEntry: true,
        imports: ['_vendor-BBBBBBBB.js'],
        css: ['assets/detail-EEEEEEEE.css'],
      },
    };
    expect(firstScreen(manifest)).toEqual({
      js: new Set(['assets/index-AAAAAAAA.js', 'assets/vendor-BBBBBBBB.js']),
      css: new Set(['assets/index-CCCCCCCC.css']),
    });
  });

  it('is null without an entry', () => {
    expect(firstScreen({ 'a.js': { file: 'assets/a.js' } })).toBeNull();
  });
});
