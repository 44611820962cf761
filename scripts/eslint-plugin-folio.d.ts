// Types of scripts/eslint-plugin-folio.js (kept in JavaScript: eslint.config.js loads it unbundled).
import type { ESLint } from 'eslint';

export declare const folioPlugin: ESLint.Plugin;
export declare function resolveImport(fromFile: string, specifier: string): string | undefined;
export declare function staticImports(file: string): string[];
export declare function pathBack(start: string, goal: string): string[] | null;
