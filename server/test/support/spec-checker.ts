import type { ValidateFunction } from 'ajv/dist/2020.js';
import { createSpecAjv, loadSpec, toAjvSchema } from '../../src/spec.ts';

const spec = loadSpec();
const ajv = createSpecAjv(spec, { allErrors: true });
const compiled = new Map<string, ValidateFunction>();

/**
 * Fails (throws) unless `body` is what the contract says `operationId` answers with `status`:
 * the status must be listed for the operation and the body must match its JSON schema.
 */
export function expectSpecResponse(operationId: string, status: number, body: unknown): void {
  const operation = spec.operations.get(operationId);
  if (operation === undefined) throw new Error(`the spec has no operation ${operationId}`);
  const key = String(status);
  if (!operation.responses.has(key)) {
    const listed = [...operation.responses.keys()].join(', ');
    throw new Error(`${operationId} answered ${status}, which the spec does not list (${listed})`);
  }
  const schema = operation.responses.get(key);
  if (schema === undefined) {
    if (body !== undefined) throw new Error(`${operationId} ${status} has no body in the spec`);
    return;
  }
  check(`${operationId} ${status}`, schema, body);
}

/** Fails unless `body` matches the component schema `name` (for answers outside operations). */
export function expectSpecSchema(name: string, body: unknown): void {
  const schema = spec.componentSchemas[name];
  if (schema === undefined) throw new Error(`the spec has no schema ${name}`);
  check(name, schema, body);
}

function check(key: string, schema: unknown, body: unknown): void {
  let validate = compiled.get(key);
  if (validate === undefined) {
    validate = ajv.compile(toAjvSchema(schema) as object);
    compiled.set(key, validate);
  }
  if (!validate(body)) {
    const errors = ajv.errorsText(validate.errors, { separator: '\n  ' });
    const shown = JSON.stringify(body)?.slice(0, 1500);
    throw new Error(`${key}: the response does not match the spec:\n  ${errors}\nbody: ${shown}`);
  }
}
