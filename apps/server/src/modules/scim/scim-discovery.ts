// What the service announces of itself (RFC 7643 §5–7, RFC 7644 §4): its features, its two
// resource types and the attributes of their schemas, as this server implements them.
import { SCIM_LIMITS, URN } from './scim-protocol.ts';

const meta = (base: string, type: string, path: string) => ({
  resourceType: type,
  location: `${base}/${path}`,
});

export function serviceProviderConfig(base: string) {
  return {
    schemas: [URN.serviceProviderConfig],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_LIMITS.page.max },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description:
          "A SCIM token made in the console (Organization → Provisioning), sent as 'Authorization: Bearer <token>'.",
        primary: true,
      },
    ],
    meta: meta(base, 'ServiceProviderConfig', 'ServiceProviderConfig'),
  };
}

const attribute = (
  name: string,
  type: 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime',
  extra: Record<string, unknown> = {},
) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

const USER_SCHEMA = {
  id: URN.user,
  name: 'User',
  description: 'A person of the organization',
  attributes: [
    attribute('userName', 'string', { required: true, uniqueness: 'server' }),
    attribute('name', 'complex', {
      subAttributes: ['formatted', 'familyName', 'givenName', 'middleName'].map((n) =>
        attribute(n, 'string'),
      ),
    }),
    attribute('displayName', 'string'),
    attribute('title', 'string'),
    attribute('active', 'boolean'),
    attribute('emails', 'complex', {
      multiValued: true,
      subAttributes: [
        attribute('value', 'string'),
        attribute('type', 'string', { canonicalValues: ['work', 'home', 'other'] }),
        attribute('primary', 'boolean'),
      ],
    }),
    attribute('externalId', 'string', { caseExact: true }),
  ],
};

const GROUP_SCHEMA = {
  id: URN.group,
  name: 'Group',
  description: 'A team of the organization',
  attributes: [
    attribute('displayName', 'string', { required: true, uniqueness: 'server' }),
    attribute('members', 'complex', {
      multiValued: true,
      subAttributes: [
        attribute('value', 'string', { mutability: 'immutable' }),
        attribute('display', 'string', { mutability: 'readOnly' }),
        attribute('$ref', 'reference', { mutability: 'immutable', referenceTypes: ['User'] }),
      ],
    }),
    attribute('externalId', 'string', { caseExact: true }),
  ],
};

const ENTERPRISE_SCHEMA = {
  id: URN.enterpriseUser,
  name: 'EnterpriseUser',
  description: 'Kept as the identity system sends it',
  attributes: ['employeeNumber', 'costCenter', 'organization', 'division', 'department'].map((n) =>
    attribute(n, 'string'),
  ),
};

export function schemas(base: string) {
  return [USER_SCHEMA, GROUP_SCHEMA, ENTERPRISE_SCHEMA].map((schema) => ({
    schemas: [URN.schema],
    ...schema,
    meta: meta(base, 'Schema', `Schemas/${schema.id}`),
  }));
}

export function resourceTypes(base: string) {
  return [
    {
      schemas: [URN.resourceType],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'People',
      schema: URN.user,
      schemaExtensions: [{ schema: URN.enterpriseUser, required: false }],
      meta: meta(base, 'ResourceType', 'ResourceTypes/User'),
    },
    {
      schemas: [URN.resourceType],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'Teams',
      schema: URN.group,
      meta: meta(base, 'ResourceType', 'ResourceTypes/Group'),
    },
  ];
}

export const listOf = (resources: unknown[]) => ({
  schemas: [URN.listResponse],
  totalResults: resources.length,
  startIndex: 1,
  itemsPerPage: resources.length,
  Resources: resources,
});
