import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  BulkPeopleBody,
  BulkPeopleResponse,
  CreatePersonBody,
  DeletePersonBody,
  IdParams,
  InvitationSentResponse,
  InvitePersonBody,
  NoContent,
  OffboardingResponse,
  PEOPLE_IMPORT_LIMITS,
  PeopleImportApplyBody,
  PeopleImportBody,
  PeopleImportPreview,
  PeopleImportResult,
  PeopleQuery,
  PeopleResponse,
  PersonDetail,
  PersonRow,
  UpdatePersonBody,
} from '@signpost/contract';
import { adminRoute, bodyErrorAnswers, errorAnswers } from '../../lib/route-schemas.ts';
import type { PeopleImportService } from './people-import.service.ts';
import type { PeopleService } from './people.service.ts';
import { caller, originOf } from '../../lib/request-context.ts';

/** Administration of people: `/api/admin/people`. Organization administrators only. */
export const adminPeopleRoutes: FastifyPluginAsyncTypebox<{
  people: PeopleService;
  peopleImport: PeopleImportService;
}> = async (app, { people: service, peopleImport }) => {
  app.get(
    '/people',
    {
      schema: {
        ...adminRoute,
        summary: 'The people of the organization: searched, filtered, in name order, by page',
        description:
          '`q` matches name or e-mail (case-insensitive; `%`, `_` and `\\` literal). ' +
          '`signIn`: `password` (has one), `sso` (has a single sign-on identity), `never` ' +
          '(has never signed in). Pass `nextCursor` as `cursor` for the next page.',
        querystring: PeopleQuery,
        response: { 200: PeopleResponse, ...errorAnswers },
      },
    },
    async (request) => service.list(caller(request), request.query),
  );

  app.post(
    '/people/invitations',
    {
      schema: {
        ...adminRoute,
        summary: 'Invite a person by e-mail: an invitation link valid 7 days',
        description:
          'The person exists at once with status `invited`. With mail configured a mail with ' +
          'the link is put on the mail queue (`mail: queued`, no link): GET /people/{id} ' +
          'then says what the mail server made of it. Otherwise the answer carries the link ' +
          'to hand over, and `mail` says why: `not-configured`, or `not-queued` when the ' +
          'queue did not take the mail. 409 when someone has the e-mail address.',
        body: InvitePersonBody,
        response: { 201: InvitationSentResponse, ...bodyErrorAnswers },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await service.invite(caller(request), request.body, originOf(request))),
  );

  app.post(
    '/people',
    {
      schema: {
        ...adminRoute,
        summary: 'Create a person with a password',
        body: CreatePersonBody,
        response: { 201: PersonRow, ...bodyErrorAnswers },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await service.create(caller(request), request.body, originOf(request))),
  );

  // People from a CSV file (decision 0085): the file travels as a JSON string (decision 0049),
  // larger than any other body of the console. Its own limit (5 MB once read) is the
  // service's, answered in words; this one only stops what could never be a file of 5 MB.
  const importBodyLimit = 4 * PEOPLE_IMPORT_LIMITS.bytes;
  app.post(
    '/people/import/preview',
    {
      bodyLimit: importBodyLimit,
      schema: {
        ...adminRoute,
        summary: 'What importing people from a CSV file would do, writing nothing',
        description:
          'The header names the columns, in any case: `name`, `email` (or `e-mail`), ' +
          '`role` (`member` or `admin`; empty keeps an existing person’s role), `teams` ' +
          '(existing team names separated by `;` or `|`). Counts of the people to create, ' +
          'change and left as they are, every refused row with its number (the header is ' +
          'row 1) and reason, and the first 50 planned rows. 400 for a file that is not ' +
          'UTF-8 CSV, lacks the `name` or `email` column, or exceeds 5 MB or 20,000 rows.',
        body: PeopleImportBody,
        response: { 200: PeopleImportPreview, ...bodyErrorAnswers },
      },
    },
    async (request) => peopleImport.preview(caller(request), request.body),
  );

  app.post(
    '/people/import',
    {
      bodyLimit: importBodyLimit,
      schema: {
        ...adminRoute,
        summary: 'Import people from a CSV file in one transaction',
        description:
          'The rows the preview refuses are left out; everything else is written in one ' +
          'transaction, or nothing is. New people are invited (status `invited`, an ' +
          'invitation valid 7 days), mailed after the commit when `sendInvitations` is true ' +
          'and mail is set up. Memberships are added by hand and never taken away. A file ' +
          'that makes administrators or changes roles needs a fresh sign-in.',
        body: PeopleImportApplyBody,
        response: { 200: PeopleImportResult, ...bodyErrorAnswers },
      },
    },
    async (request) => peopleImport.apply(caller(request), request.body, originOf(request)),
  );

  app.post(
    '/people/bulk',
    {
      schema: {
        ...adminRoute,
        summary: 'One action on a selection of people, all or nothing',
        description:
          'Every id is authorized; one refused item (unknown id, the last administrator) ' +
          'refuses the whole selection and nothing changes.',
        body: BulkPeopleBody,
        response: { 200: BulkPeopleResponse, ...bodyErrorAnswers },
      },
    },
    async (request) => service.bulk(caller(request), request.body, originOf(request)),
  );

  app.get(
    '/people/:id',
    {
      schema: {
        ...adminRoute,
        summary: 'One person, as a row of the list, with their open invitation',
        description:
          '`invitation`: the open invitation of an invited person (null otherwise), with what ' +
          'became of its mail: `queued`, `retrying`, `sent` (the mail server accepted it), ' +
          '`failed`, or null when no mail was queued.',
        params: IdParams,
        response: { 200: PersonDetail, ...errorAnswers },
      },
    },
    async (request) => service.get(caller(request), request.params.id),
  );

  app.patch(
    '/people/:id',
    {
      schema: {
        ...adminRoute,
        summary: 'Change name, e-mail, role or status (active/disabled)',
        description:
          'Disabling ends the person’s sessions and access tokens at once. The last active ' +
          'administrator cannot be demoted or disabled (409).',
        params: IdParams,
        body: UpdatePersonBody,
        response: { 200: PersonRow, ...bodyErrorAnswers },
      },
    },
    async (request) =>
      service.update(caller(request), request.params.id, request.body, originOf(request)),
  );

  app.post(
    '/people/:id/invitation',
    {
      schema: {
        ...adminRoute,
        summary: 'Send an invitation again: a new link; the earlier one stops working',
        description: 'Answers as inviting does: whether the new link went by mail, or the link.',
        params: IdParams,
        response: { 200: InvitationSentResponse, ...errorAnswers },
      },
    },
    async (request) =>
      service.resendInvitation(caller(request), request.params.id, originOf(request)),
  );

  app.post(
    '/people/:id/second-factor/reset',
    {
      schema: {
        ...adminRoute,
        summary: 'Remove a person’s second factor and recovery codes',
        params: IdParams,
        response: { 204: NoContent, ...errorAnswers },
      },
    },
    async (request, reply) => {
      await service.resetSecondFactor(caller(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/people/:id/sign-out',
    {
      schema: {
        ...adminRoute,
        summary: 'Sign a person out everywhere: every session and access token ends',
        params: IdParams,
        response: { 204: NoContent, ...errorAnswers },
      },
    },
    async (request, reply) => {
      await service.signOutEverywhere(caller(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/people/:id/offboarding',
    {
      schema: {
        ...adminRoute,
        summary: 'The shared collections a person owns, asked about before deleting them',
        params: IdParams,
        response: { 200: OffboardingResponse, ...errorAnswers },
      },
    },
    async (request) => service.offboarding(caller(request), request.params.id),
  );

  app.delete(
    '/people/:id',
    {
      schema: {
        ...adminRoute,
        summary: 'Delete a person, transferring or deleting their shared collections',
        description:
          'In one transaction: each shared collection goes to the colleague named (moved to ' +
          'the end of their My Space; members stay) or is deleted; the rest of their My Space ' +
          'goes with them; links they added to others’ collections stay.',
        params: IdParams,
        body: DeletePersonBody,
        response: { 204: NoContent, ...bodyErrorAnswers },
      },
    },
    async (request, reply) => {
      await service.remove(caller(request), request.params.id, request.body, originOf(request));
      return reply.status(204).send(null);
    },
  );
};
