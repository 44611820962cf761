// Rewrites the URLs of a stylesheet or a `style=""` attribute. A small tokenizer after CSS Syntax
// Level 3 finds what a browser would fetch: `url(...)` tokens and `url("...")` functions (escaped
// names such as `u\rl(` included), strings in `image-set()`, `-webkit-image-set()`, `image()` and
// `src()`, and `@import`. An imported stylesheet is inlined in place of its `@import` (wrapped in
// `@media`/`@supports`/`@layer` blocks for the import's conditions), so a page's CSS needs no
// blob: URL: the app's own CSP (inherited by srcdoc frames) only allows inline styles.
// Everything else is copied as written, except comments (emptied) and `@charset` (dropped: the
// result is always UTF-8). The output never contains `<` followed by a letter, `/`, `!` or `?`,
// so it cannot open or close markup as the text of a `<style>` element, and every block it opens
// is closed, so it can be nested in another.

export interface CssRewriteHooks {
  /** The URL to write for a subresource (image, font, cursor…), or `null` to drop it (`none`). */
  url(url: string): string | null;
  /** The rewritten text of an imported stylesheet, or `null` to drop the `@import`. */
  import(url: string): string | null;
}

interface AtRule {
  name: string;
  /** Where the rule's text begins in the output. */
  outStart: number;
  /** The block depth of the rule. */
  depth: number;
  /** For `@import`: where the conditions after the URL begin, and the imported text. */
  urlEnd: number;
  imported: string | null | undefined;
  drop: boolean;
}

const CLOSERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

const URL_FUNCTIONS = new Set(['image-set', '-webkit-image-set', 'image', '-webkit-image', 'src']);

function isNameStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c >= 0x80 || c === 0;
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a;
}

/** A CSS string literal holding `value`, safe inside HTML raw text and attributes. */
export function cssString(value: string): string {
  return `"${value.replace(/[\\"\n<]/g, (c) => (c === '\n' ? '\\a ' : c === '<' ? '\\3c ' : `\\${c}`))}"`;
}

class CssRewriter {
  private readonly s: string;
  private i = 0;
  private readonly out: string[] = [];
  /** Open blocks: the character that closes each, and the function's name for `(` (or `''`). */
  private readonly blocks: Array<{ closer: string; fn: string }> = [];
  /** Whether a rule with a block has been seen (an `@import` after one is ignored by browsers). */
  private rulesStarted = false;
  /** The at-rule whose prelude is being read (`import`, `namespace`, `charset`). */
  private atRule: AtRule | null = null;

  constructor(
    css: string,
    private readonly hooks: CssRewriteHooks,
  ) {
    // CSS Syntax's preprocessing: newlines normalised, NUL replaced.
    this.s = css.replace(/\r\n?|\f/g, '\n').replace(/\0/g, '\uFFFD');
  }

  private code(offset = 0): number {
    const index = this.i + offset;
    return index < this.s.length ? this.s.charCodeAt(index) : -1;
  }

  private validEscape(offset = 0): boolean {
    return (
      this.code(offset) === 0x5c && this.code(offset + 1) !== 0x0a && this.code(offset + 1) !== -1
    );
  }

  private startsIdent(offset = 0): boolean {
    const c = this.code(offset);
    if (c === 0x2d) {
      const next = this.code(offset + 1);
      return isNameStart(next) || next === 0x2d || this.validEscape(offset + 1);
    }
    if (isNameStart(c)) return true;
    return this.validEscape(offset);
  }

  private startsNumber(): boolean {
    const c = this.code();
    if (c === 0x2b || c === 0x2d) {
      return isDigit(this.code(1)) || (this.code(1) === 0x2e && isDigit(this.code(2)));
    }
    if (c === 0x2e) return isDigit(this.code(1));
    return isDigit(c);
  }

  /** Consumes an escape (the backslash already consumed) and returns the character. */
  private consumeEscape(): string {
    const c = this.code();
    if (c === -1) return '\uFFFD';
    if (isHexDigit(c)) {
      let hex = '';
      while (hex.length < 6 && isHexDigit(this.code())) {
        hex += this.s[this.i];
        this.i++;
      }
      if (isWhitespace(this.code())) this.i++;
      const value = parseInt(hex, 16);
      return value === 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)
        ? '\uFFFD'
        : String.fromCodePoint(value);
    }
    const char = String.fromCodePoint(this.s.codePointAt(this.i)!);
    this.i += char.length;
    return char;
  }

  /** Consumes an identifier and returns its value with escapes decoded. */
  private consumeName(): string {
    let name = '';
    for (;;) {
      const c = this.code();
      if (isNameChar(c)) {
        name += this.s[this.i];
        this.i++;
      } else if (this.validEscape()) {
        this.i++;
        name += this.consumeEscape();
      } else {
        return name;
      }
    }
  }

  /** Consumes a string token (at its quote); returns its decoded value and whether it is closed. */
  private consumeString(): { value: string; raw: string } {
    const start = this.i;
    const quote = this.code();
    this.i++;
    let value = '';
    for (;;) {
      const c = this.code();
      if (c === -1 || c === quote) {
        if (c === quote) this.i++;
        break;
      }
      if (c === 0x0a) break; // bad string: ends before the newline
      if (c === 0x5c) {
        if (this.code(1) === -1) {
          this.i++;
        } else if (this.code(1) === 0x0a) {
          this.i += 2; // escaped newline: a line continuation
        } else {
          this.i++;
          value += this.consumeEscape();
        }
        continue;
      }
      value += this.s[this.i];
      this.i++;
    }
    return { value, raw: this.s.slice(start, this.i) };
  }

  /**
   * Consumes the rest of an unquoted `url(` token (after the parenthesis and whitespace). Returns
   * the URL, or `null` for a bad-url token (which browsers never fetch).
   */
  private consumeUnquotedUrl(): string | null {
    let value = '';
    for (;;) {
      const c = this.code();
      if (c === 0x29 || c === -1) {
        this.i++;
        return value;
      }
      if (isWhitespace(c)) {
        while (isWhitespace(this.code())) this.i++;
        if (this.code() === 0x29 || this.code() === -1) {
          this.i++;
          return value;
        }
        this.consumeBadUrl();
        return null;
      }
      if (
        c === 0x22 ||
        c === 0x27 ||
        c === 0x28 ||
        c <= 0x08 ||
        c === 0x0b ||
        (c >= 0x0e && c <= 0x1f) ||
        c === 0x7f
      ) {
        this.consumeBadUrl();
        return null;
      }
      if (c === 0x5c) {
        if (this.validEscape()) {
          this.i++;
          value += this.consumeEscape();
          continue;
        }
        this.consumeBadUrl();
        return null;
      }
      value += this.s[this.i];
      this.i++;
    }
  }

  private consumeBadUrl(): void {
    for (;;) {
      const c = this.code();
      if (c === -1) return;
      this.i++;
      if (c === 0x29) return;
      if (c === 0x5c && this.code() !== -1) this.i++;
    }
  }

  private emit(text: string): void {
    this.out.push(text);
  }

  /** Writes the replacement of a URL found in the CSS (an `@import`'s is read, not written). */
  private emitUrl(url: string): void {
    const rule = this.atRule;
    if (rule?.name === 'namespace') {
      // A namespace URL is a name, never fetched: keep it.
      this.emit(`url(${cssString(url)})`);
      return;
    }
    if (rule?.name === 'import' && rule.imported === undefined) {
      rule.imported = rule.drop ? null : this.hooks.import(url);
      rule.urlEnd = this.out.length;
      return;
    }
    const replaced = this.hooks.url(url);
    this.emit(replaced === null ? 'none' : `url(${cssString(replaced)})`);
  }

  /** Ends the prelude of the current at-rule (at its `;` or at the end of the input). */
  private endAtRule(terminator: string): void {
    const rule = this.atRule;
    this.atRule = null;
    if (!rule) return;
    if (rule.name === 'charset') {
      this.out.length = rule.outStart;
    } else if (rule.name === 'import') {
      const conditions = rule.urlEnd === -1 ? '' : this.out.slice(rule.urlEnd).join('');
      this.out.length = rule.outStart;
      if (!rule.drop && rule.imported) this.emit(wrapImport(rule.imported, conditions));
    } else {
      this.emit(terminator);
    }
  }

  private open(closer: string, fn = ''): void {
    this.blocks.push({ closer, fn });
  }

  private close(closer: string): void {
    const top = this.blocks.at(-1);
    if (top?.closer === closer) {
      this.blocks.pop();
    } else if (closer === '}' && this.blocks.some((block) => block.closer === '}')) {
      // A `}` ends its block even when a parenthesis inside was left open.
      while (this.blocks.pop()?.closer !== '}') {
        // popping
      }
    }
  }

  run(): string {
    const s = this.s;
    while (this.i < s.length) {
      const c = this.code();
      const start = this.i;

      if (c === 0x2f && this.code(1) === 0x2a) {
        const end = s.indexOf('*/', this.i + 2);
        this.i = end === -1 ? s.length : end + 2;
        this.emit('/**/');
        continue;
      }
      if (c === 0x22 || c === 0x27) {
        const { value, raw } = this.consumeString();
        const fn = this.blocks.at(-1)?.fn;
        if (this.atRule?.name === 'import' && this.atRule.imported === undefined) {
          this.emitUrl(value);
        } else if (fn !== undefined && URL_FUNCTIONS.has(fn)) {
          const replaced = this.hooks.url(value);
          // `src("…")` takes a string; the image functions take a string or an image.
          if (replaced === null) this.emit(fn === 'src' ? '""' : 'none');
          else this.emit(fn === 'src' ? cssString(replaced) : `url(${cssString(replaced)})`);
        } else {
          // A string's raw text is valid CSS; only `<` needs an escape inside HTML raw text.
          this.emit(raw.replace(/</g, '\\3c '));
        }
        continue;
      }
      if (c === 0x23 && (isNameChar(this.code(1)) || this.validEscape(1))) {
        // A hash token (`#fff`, `#id`): its name is never a function.
        this.i++;
        this.consumeName();
        this.emit(s.slice(start, this.i));
        continue;
      }
      if (c === 0x40 && this.startsIdent(1)) {
        this.i++;
        const name = this.consumeName().toLowerCase();
        if (!this.atRule && (name === 'import' || name === 'namespace' || name === 'charset')) {
          this.atRule = {
            name,
            outStart: this.out.length,
            depth: this.blocks.length,
            urlEnd: -1,
            imported: undefined,
            // Only valid before the first rule, at the top level.
            drop: name === 'import' && (this.rulesStarted || this.blocks.length > 0),
          };
        }
        this.emit(s.slice(start, this.i));
        continue;
      }
      if (this.startsNumber()) {
        this.i++;
        while (isDigit(this.code()) || this.code() === 0x2e) this.i++;
        if (
          (this.code() === 0x65 || this.code() === 0x45) &&
          (isDigit(this.code(1)) ||
            ((this.code(1) === 0x2b || this.code(1) === 0x2d) && isDigit(this.code(2))))
        ) {
          this.i += 2;
          while (isDigit(this.code())) this.i++;
        }
        if (this.startsIdent()) this.consumeName(); // a dimension's unit, never a function
        this.emit(s.slice(start, this.i));
        continue;
      }
      if (this.startsIdent()) {
        const name = this.consumeName().toLowerCase();
        if (this.code() !== 0x28) {
          this.emit(s.slice(start, this.i));
          continue;
        }
        this.i++; // (
        if (name === 'url') {
          while (isWhitespace(this.code())) this.i++;
          const q = this.code();
          if (q !== 0x22 && q !== 0x27) {
            const url = this.consumeUnquotedUrl();
            if (url === null) this.emit('none');
            else this.emitUrl(url);
            continue;
          }
          // url("…"): a function whose argument is a string.
          const { value } = this.consumeString();
          while (isWhitespace(this.code())) this.i++;
          if (this.code() === 0x29 || this.code() === -1) {
            this.i++;
            this.emitUrl(value);
            continue;
          }
          // Modifiers after the string (`url("a" crossorigin(…))`): keep the function open.
          const replaced = this.hooks.url(value);
          this.emit(`url(${cssString(replaced ?? '')} `);
          this.open(')', 'url');
          continue;
        }
        this.open(')', name);
        this.emit(s.slice(start, this.i));
        continue;
      }
      if (c === 0x28 || c === 0x5b) {
        this.open(CLOSERS[s[this.i]!]!);
      } else if (c === 0x29 || c === 0x5d) {
        this.close(s[this.i]!);
      } else if (c === 0x3b && this.atRule && this.blocks.length === this.atRule.depth) {
        this.i++;
        this.endAtRule(';');
        continue;
      } else if (c === 0x7b) {
        // A block ends any prelude (`@import` misused before `{` is left for the browser to drop).
        if (this.atRule?.name === 'import') this.atRule.drop = true;
        this.atRule = null;
        this.rulesStarted = true;
        this.open('}');
      } else if (c === 0x7d) {
        this.atRule = null;
        this.close('}');
      } else if (c === 0x5c) {
        // A backslash that does not start an identifier (escaped newline): keep it.
        this.i += this.code(1) === -1 ? 1 : 2;
        this.emit(s.slice(start, this.i));
        continue;
      } else if (c === 0x3c && s.startsWith('<!--', this.i)) {
        // CDO (old pages hide their CSS in an HTML comment): CSS ignores it, so can we.
        this.i += 4;
        this.emit(' ');
        continue;
      } else if (c === 0x3c && startsMarkup(this.code(1))) {
        // `<` before a letter, `/`, `!` or `?` could open a tag if the text were read as HTML.
        this.i++;
        this.emit('\\3c ');
        continue;
      }
      // Any other run of characters that cannot start a token we care about.
      this.i++;
      while (this.i < s.length && isPlain(this.code())) this.i++;
      this.emit(s.slice(start, this.i));
    }
    this.endAtRule('');
    // Close what the input left open (a newline first ends an unterminated string).
    if (this.blocks.length) {
      this.emit(
        `\n${this.blocks
          .map((block) => block.closer)
          .reverse()
          .join('')}`,
      );
    }
    // Belt and braces: an escaped `<` in an identifier is copied as written; never let markup through.
    return this.out.join('').replace(/<(?=[A-Za-z!/?])/g, '\\3c ');
  }
}

/** Finds the `)` closing the parenthesis at `open` in `text` (or the end). */
function matchingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return text.length;
}

/**
 * An imported stylesheet in place of its `@import`, inside blocks for the import's conditions:
 * `layer`/`layer(name)`, `supports(…)` and a media query list.
 */
export function wrapImport(css: string, conditions: string): string {
  let rest = conditions.replace(/\/\*\*\//g, ' ').trim();
  let layer: string | null = null;
  const named = /^layer\(\s*([^)]*?)\s*\)/i.exec(rest);
  if (named) {
    layer = named[1]!;
    rest = rest.slice(named[0].length).trim();
  } else if (/^layer(?![\w-(])/i.test(rest)) {
    layer = '';
    rest = rest.slice(5).trim();
  }
  let supports: string | null = null;
  if (/^supports\(/i.test(rest)) {
    const open = rest.indexOf('(');
    const close = matchingParen(rest, open);
    supports = rest.slice(open + 1, close).trim();
    rest = rest.slice(close + 1).trim();
  }
  let out = css;
  if (layer !== null) out = `@layer${layer ? ` ${layer}` : ''}{\n${out}\n}`;
  if (supports !== null) out = `@supports (${supports}){\n${out}\n}`;
  if (rest && !/^all$/i.test(rest)) out = `@media ${rest}{\n${out}\n}`;
  return out;
}

function startsMarkup(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x2f || c === 0x21 || c === 0x3f
  );
}

/** Characters that never begin a string, comment, identifier, number, at-keyword or bracket. */
function isPlain(c: number): boolean {
  return (
    c === 0x20 ||
    c === 0x0a ||
    c === 0x09 ||
    c === 0x3a ||
    c === 0x2c ||
    c === 0x3e ||
    c === 0x7e ||
    c === 0x21 ||
    c === 0x7c ||
    c === 0x3d ||
    c === 0x2a ||
    c === 0x25 ||
    c === 0x5d ||
    c === 0x5b ||
    c === 0x26 ||
    c === 0x24 ||
    c === 0x5e
  );
}

/** Rewrites a stylesheet (a `<style>` element or a CSS resource), inlining its imports. */
export function rewriteStylesheet(css: string, hooks: CssRewriteHooks): string {
  return new CssRewriter(css, hooks).run();
}

/** Rewrites a declaration list (a `style` attribute or an SVG presentation attribute value). */
export function rewriteDeclarations(css: string, url: (url: string) => string | null): string {
  // Declarations hold no @import; one there is not a rule and imports nothing.
  return new CssRewriter(css, { url, import: () => null }).run();
}
