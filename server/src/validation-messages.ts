import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';

type JsonObject = Record<string, unknown>;

/**
 * One human message for a failed validation, naming the field, e.g.
 * `body/ext must be one of html, mhtml, webarchive` or `query/per_page must be <= 1000`.
 *
 * Validation stops at the first failing keyword, so the last error is the one that failed; for a
 * `oneOf` (the view filters) the alternative chosen by its discriminating property (`key`) is
 * validated again to say what is wrong with it instead of listing every alternative.
 */
export function describeValidationError(
  ajv: Ajv2020,
  location: string,
  errors: readonly ErrorObject[],
): string {
  const error = errors[errors.length - 1];
  if (error === undefined) return `${location} is invalid`;
  const path = location + pointerToPath(error.instancePath);
  const params = error.params as JsonObject;
  switch (error.keyword) {
    case 'required':
      return `${path}/${String(params.missingProperty)} is required`;
    case 'additionalProperties':
      return `${path}/${String(params.additionalProperty)} is not allowed`;
    case 'unevaluatedProperties':
      return `${path}/${String(params.unevaluatedProperty)} is not allowed`;
    case 'enum':
      return `${path} must be one of ${listValues(params.allowedValues)}`;
    case 'const':
      return `${path} must be ${JSON.stringify(params.allowedValue)}`;
    case 'type':
      return `${path} must be ${describeType(params.type)}`;
    case 'minLength':
      return params.limit === 1
        ? `${path} must not be empty`
        : `${path} must be at least ${String(params.limit)} characters long`;
    case 'maxLength':
      return `${path} must be at most ${String(params.limit)} characters long`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${path} must be ${String(params.comparison)} ${String(params.limit)}`;
    case 'minItems':
      return `${path} must have at least ${String(params.limit)} items`;
    case 'maxItems':
      return `${path} must have at most ${String(params.limit)} items`;
    case 'minProperties':
      return params.limit === 1
        ? `${path} must have at least one field`
        : `${path} must have at least ${String(params.limit)} fields`;
    case 'maxProperties':
      return `${path} must have at most ${String(params.limit)} fields`;
    case 'pattern':
      return `${path} must match the pattern ${String(params.pattern)}`;
    case 'format':
      return `${path} must be a valid ${String(params.format)}`;
    case 'oneOf':
    case 'anyOf':
      return describeAlternatives(ajv, path, error) ?? `${path} ${error.message ?? 'is invalid'}`;
    default:
      return `${path} ${error.message ?? 'is invalid'}`;
  }
}

interface Alternative {
  schema: JsonObject;
  validate: ValidateFunction;
}

function describeAlternatives(ajv: Ajv2020, path: string, error: ErrorObject): string | undefined {
  const parent = error.parentSchema;
  const list = parent?.[error.keyword];
  if (!Array.isArray(list)) return undefined;
  const alternatives = list.map((entry) => alternativeOf(ajv, entry));
  if (alternatives.some((alternative) => alternative === undefined)) return undefined;
  const known = alternatives as Alternative[];
  const data = error.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return known.every((alternative) => alternative.schema.type === 'object')
      ? `${path} must be an object`
      : undefined;
  }
  const discriminator = findDiscriminator(known);
  if (discriminator === undefined) return undefined;
  const value = (data as JsonObject)[discriminator.property];
  if (value === undefined) return `${path}/${discriminator.property} is required`;
  const index = discriminator.values.findIndex((candidate) => candidate === value);
  const chosen = known[index];
  if (chosen === undefined) {
    return `${path}/${discriminator.property} must be one of ${listValues(discriminator.values)}`;
  }
  if (chosen.validate(data)) return undefined;
  return describeValidationError(ajv, path, chosen.validate.errors ?? []);
}

function alternativeOf(ajv: Ajv2020, entry: unknown): Alternative | undefined {
  if (entry === null || typeof entry !== 'object') return undefined;
  const ref = (entry as JsonObject).$ref;
  if (typeof ref === 'string' && Object.keys(entry).length === 1) {
    const validate = ajv.getSchema(ref);
    const schema = validate?.schema;
    if (!validate || schema === null || typeof schema !== 'object') return undefined;
    return { schema: schema as JsonObject, validate };
  }
  return undefined;
}

/** A property that every alternative fixes with a `const`, a different one in each. */
function findDiscriminator(
  alternatives: readonly Alternative[],
): { property: string; values: unknown[] } | undefined {
  const first = alternatives[0];
  if (first === undefined) return undefined;
  for (const property of Object.keys(propertiesOf(first.schema))) {
    const values = alternatives.map((alternative) => {
      const definition = propertiesOf(alternative.schema)[property];
      return definition !== null && typeof definition === 'object'
        ? (definition as JsonObject).const
        : undefined;
    });
    if (values.some((value) => value === undefined)) continue;
    if (new Set(values).size === values.length) return { property, values };
  }
  return undefined;
}

function propertiesOf(schema: JsonObject): JsonObject {
  const properties = schema.properties;
  return properties !== null && typeof properties === 'object' ? (properties as JsonObject) : {};
}

function describeType(type: unknown): string {
  const names = String(type).split(',');
  return names
    .map((name) => {
      if (name === 'null') return 'null';
      const article = /^[aeiou]/.test(name) ? 'an' : 'a';
      return `${article} ${name}`;
    })
    .join(' or ');
}

function listValues(values: unknown): string {
  return Array.isArray(values)
    ? values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(', ')
    : String(values);
}

function pointerToPath(pointer: string): string {
  return pointer
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('/');
}
