// Walking a JSON schema (the routes' TypeBox schemas) to the schemas a value's place may
// match: shared by the checks of request text (request-text.ts) and the field words of a
// refusal (field-words.ts).

export type Schema = Record<string, unknown>;

export const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema and its branches (`anyOf`, `oneOf`, `allOf`): every place a value may match. */
export function branches(schema: unknown): Schema[] {
  if (!isObject(schema)) return [];
  const result: Schema[] = [schema];
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const list = schema[key];
    if (Array.isArray(list)) for (const branch of list) result.push(...branches(branch));
  }
  return result;
}

/**
 * The schemas of a property of an object: the property's own where a branch names it, else
 * those of the pattern properties it matches and of the additional properties.
 */
export function propertySchemas(schemas: Schema[], key: string): Schema[] {
  const result: Schema[] = [];
  for (const schema of schemas) {
    const properties = schema.properties;
    if (isObject(properties) && Object.hasOwn(properties, key)) {
      result.push(...branches(properties[key]));
      continue;
    }
    const patterns = schema.patternProperties;
    if (isObject(patterns)) {
      for (const [pattern, sub] of Object.entries(patterns)) {
        if (new RegExp(pattern, 'u').test(key)) result.push(...branches(sub));
      }
    }
    if (isObject(schema.additionalProperties))
      result.push(...branches(schema.additionalProperties));
  }
  return result;
}
