// The shape an upload body may have, taken from the contract (UploadWebpageRequest): `content` and
// the other fields, each a string with a length limit. The limit of a field is its `maxLength`, or
// for an enum the longest value; a field without either gets DEFAULT_FIELD_LENGTH. A value past
// its limit is answered with the message the contract's validator gives it.
import { createSpecAjv, loadSpec, toAjvSchema, type ApiSpec } from '../spec.ts';
import { describeValidationError } from '../validation-messages.ts';
import { CONTENT_KEY, type FieldRule, type UploadShape } from './body-reader.ts';

/** The limit of a string field whose schema sets none: a few kB, like every other field. */
export const DEFAULT_FIELD_LENGTH = 4096;

const REQUEST_SCHEMA = 'UploadWebpageRequest';
const REF_PREFIX = '#/components/schemas/';

type Schema = Record<string, unknown>;

/** The upload body's shape from the contract (the app's spec by default). */
export function uploadShapeOf(spec: ApiSpec = loadSpec()): UploadShape {
  const request = spec.componentSchemas[REQUEST_SCHEMA] as Schema | undefined;
  const properties = request?.properties as Record<string, Schema> | undefined;
  if (properties === undefined || request?.additionalProperties !== false) {
    throw new Error(`the contract's ${REQUEST_SCHEMA} must list its fields and allow no others`);
  }
  const ajv = createSpecAjv(spec);
  const fields = new Map<string, FieldRule>();
  for (const [key, property] of Object.entries(properties)) {
    const schema = resolve(spec, property);
    if (schema.type !== 'string') {
      throw new Error(
        `${REQUEST_SCHEMA}.${key} is not a string: the upload body reader takes none`,
      );
    }
    if (key === CONTENT_KEY) continue;
    const maxLength = limitOf(schema);
    const validate = ajv.compile(toAjvSchema(property) as object);
    const over = 'x'.repeat(maxLength + 1);
    const tooLong = validate(over)
      ? `body/${key} must be at most ${maxLength} characters long`
      : describeValidationError(ajv, `body/${key}`, validate.errors ?? []);
    fields.set(key, { maxLength, tooLong });
  }
  return { fields };
}

function limitOf(schema: Schema): number {
  if (typeof schema.maxLength === 'number') return schema.maxLength;
  if (Array.isArray(schema.enum)) {
    return Math.max(...schema.enum.map((value) => String(value).length));
  }
  return DEFAULT_FIELD_LENGTH;
}

function resolve(spec: ApiSpec, schema: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const target = spec.componentSchemas[ref.replace(REF_PREFIX, '')];
  if (typeof target !== 'object') throw new Error(`the contract has no schema ${ref}`);
  return target;
}
