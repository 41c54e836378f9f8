// The words of SCIM 2.0 (RFC 7643, RFC 7644) that every part of the module shares: schema
// URNs, the error a SCIM client understands, and the limits this server announces.

export const SCIM_MEDIA_TYPE = 'application/scim+json';

export const URN = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  enterpriseUser: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

export const SCIM_LIMITS = {
  /** Resources of one list page when the client names no count, and at most. */
  page: { default: 100, max: 1000 },
  /** Operations of one PATCH. */
  patchOperations: 1000,
  /** Members of a group named in one request (a whole group's PUT or PATCH). */
  members: 20_000,
  /** The attributes kept as sent, serialized. */
  attributesBytes: 16 * 1024,
  /** A request body (a group of 20,000 members fits). */
  bodyBytes: 4 * 1024 * 1024,
  /** A filter's text. */
  filterLength: 2000,
} as const;

/** The `scimType` values of RFC 7644 §3.12 this server answers with. */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers';

/** An error a SCIM client reads: its status, its `scimType` when one applies, and a detail. */
export class ScimProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType: ScimType | null = null,
  ) {
    super(detail);
    this.name = 'ScimProblem';
  }
}

export const invalidValue = (detail: string) => new ScimProblem(400, detail, 'invalidValue');
export const invalidFilter = (detail: string) => new ScimProblem(400, detail, 'invalidFilter');
export const invalidSyntax = (detail: string) => new ScimProblem(400, detail, 'invalidSyntax');
export const uniqueness = (detail: string) => new ScimProblem(409, detail, 'uniqueness');
export const mutability = (detail: string) => new ScimProblem(400, detail, 'mutability');
export const notFound = (detail: string) => new ScimProblem(404, detail);

/** The body of a SCIM error (RFC 7644 §3.12): the status is a string. */
export function errorBody(problem: ScimProblem) {
  return {
    schemas: [URN.error],
    status: String(problem.status),
    ...(problem.scimType ? { scimType: problem.scimType } : {}),
    detail: problem.detail,
  };
}

/**
 * A boolean as the clients send it: JSON's own, or the strings "True" and "False" in any case
 * (Microsoft Entra ID sends them so); anything else is refused, naming the attribute.
 */
export function scimBoolean(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const lowered = value.trim().toLowerCase();
    if (lowered === 'true') return true;
    if (lowered === 'false') return false;
  }
  throw invalidValue(`"${attribute}" must be true or false.`);
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
