// The shape an upload body may have, taken from the contract (UploadWebpageRequest): `content` and
// the other fields, each a string with a length limit. The limit of a field is its `maxLength`, or
// for an enum the longest value; a field without either gets DEFAULT_FIELD_LENGTH. A value past
// its limit is answered as the contract's validator answers it (validation-messages.ts).
import { loadSpec, type ApiSpec } from '../spec.ts';
import { CONTENT_KEY, type FieldRule, type UploadShape } from './body-reader.ts';

/** The limit of a string field whose schema sets none: a few kB, like every other field. */
export const DEFAULT_FIELD_LENGTH = 4096;

const REQUEST_SCHEMA = 'UploadWebpageRequest';
const REF_PREFIX = '#/components/schemas/';

type Schema = Record<string, unknown>;

const shapes = new WeakMap<ApiSpec, UploadShape>();

/** The upload body's shape from the contract (the app's spec by default), made once per spec. */
export function uploadShapeOf(spec: ApiSpec = loadSpec()): UploadShape {
  let shape = shapes.get(spec);
  if (shape === undefined) {
    shape = shapeOf(spec);
    shapes.set(spec, shape);
  }
  return shape;
}

function shapeOf(spec: ApiSpec): UploadShape {
  const request = spec.componentSchemas[REQUEST_SCHEMA] as Schema | undefined;
  const properties = request?.properties as Record<string, Schema> | undefined;
  if (properties === undefined || request?.additionalProperties !== false) {
    throw new Error(`the contract's ${REQUEST_SCHEMA} must list its fields and allow no others`);
  }
  const fields = new Map<string, FieldRule>();
  for (const [key, property] of Object.entries(properties)) {
    const schema = resolve(spec, property);
    if (schema.type !== 'string') {
      throw new Error(
        `${REQUEST_SCHEMA}.${key} is not a string: the upload body reader takes none`,
      );
    }
    if (key !== CONTENT_KEY) fields.set(key, ruleOf(`body/${key}`, schema));
  }
  return { fields };
}

function ruleOf(path: string, schema: Schema): FieldRule {
  if (typeof schema.maxLength === 'number') {
    return {
      maxLength: schema.maxLength,
      tooLong: `${path} must be at most ${schema.maxLength} characters long`,
    };
  }
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.map((value) => String(value));
    return {
      maxLength: Math.max(...values.map((value) => value.length)),
      tooLong: `${path} must be one of ${values.join(', ')}`,
    };
  }
  return {
    maxLength: DEFAULT_FIELD_LENGTH,
    tooLong: `${path} must be at most ${DEFAULT_FIELD_LENGTH} characters long`,
  };
}

function resolve(spec: ApiSpec, schema: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const target = spec.componentSchemas[ref.replace(REF_PREFIX, '')];
  if (typeof target !== 'object') throw new Error(`the contract has no schema ${ref}`);
  return target;
}
