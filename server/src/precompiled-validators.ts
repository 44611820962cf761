// The request validators of the contract, compiled at build time. From the sources there are none
// (`undefined`): the server compiles each operation's schemas at its first request. The server's
// bundle replaces this module with Ajv's standalone code for every operation
// (`precompiledValidatorsSource` in precompile-validators.ts, loaded by server/build.ts).
import type { ValidateFunction } from 'ajv/dist/2020.js';

export interface PrecompiledValidators {
  /** Path and query parameters (coerced, defaults applied), by `validatorName`. */
  parameters: Readonly<Record<string, ValidateFunction>>;
  /** JSON bodies, by `validatorName`. */
  bodies: Readonly<Record<string, ValidateFunction>>;
}

export const precompiled: PrecompiledValidators | undefined = undefined;
