// Build time only (server/build.ts): Ajv's standalone code of every request validator of the
// contract, which the server's bundle carries in place of precompiled-validators.ts. The same
// schemas and options as the server compiles from its sources (spec.ts), checked against the JSON
// Schema meta-schema and in strict mode here, once, instead of at each server's first requests.
import standaloneCode from 'ajv/dist/standalone/index.js';
import {
  createSpecAjv,
  operationSchemas,
  PARAMETER_OPTIONS,
  validatorName,
  type ApiSpec,
  type RequestPart,
} from './spec.ts';

/** The schemas are added to Ajv under this base, by their validator's name. */
const VALIDATOR_BASE = 'https://folio.invalid/validators/';

/**
 * A module exporting `precompiled` (a `PrecompiledValidators`): every operation's path, query and
 * body validators. Its `require`s (Ajv's runtime helpers, ajv-formats' formats) are resolved by
 * the bundler.
 */
export function precompiledValidatorsSource(spec: ApiSpec): string {
  const options = { code: { source: true }, validateSchema: true } as const;
  const parameters = createSpecAjv(spec, { ...PARAMETER_OPTIONS, ...options });
  const bodies = createSpecAjv(spec, options);
  const parameterExports: Record<string, string> = {};
  const bodyExports: Record<string, string> = {};
  for (const operation of spec.operations.values()) {
    const schemas = operationSchemas(operation);
    for (const part of ['path', 'query', 'body'] as const satisfies readonly RequestPart[]) {
      const schema = schemas[part];
      if (schema === undefined) continue;
      const name = validatorName(operation.operationId, part);
      const [ajv, exported] =
        part === 'body' ? [bodies, bodyExports] : [parameters, parameterExports];
      ajv.addSchema(schema, `${VALIDATOR_BASE}${name}`);
      exported[name] = `${VALIDATOR_BASE}${name}`;
    }
  }
  return [
    'export const precompiled = {',
    `  parameters: ${asValue(standaloneCode(parameters, parameterExports))},`,
    `  bodies: ${asValue(standaloneCode(bodies, bodyExports))},`,
    '};',
    '',
  ].join('\n');
}

/** A CommonJS module's code as an expression of its exports (each in its own scope). */
function asValue(code: string): string {
  return `(function () {\nvar module = { exports: {} };\nvar exports = module.exports;\n${code}\nreturn module.exports;\n})()`;
}
