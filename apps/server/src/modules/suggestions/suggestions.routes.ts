import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AcceptSuggestionBody,
  AdminSuggestion,
  AdminSuggestionsQuery,
  AdminSuggestionsResponse,
  DeclineSuggestionBody,
  IdParams,
  OwnSuggestionsQuery,
  OwnSuggestionsResponse,
} from '@signpost/contract';
import {
  adminRoute,
  bodyErrorAnswers,
  consumerRoute,
  errorAnswers,
} from '../../lib/route-schemas.ts';
import type { SuggestionsService } from './suggestions.service.ts';
import { caller, originOf } from '../../lib/request-context.ts';

/**
 * Suggestions to team and organization spaces: `/api/admin/suggestions`, for the people
 * who run those spaces (administrators: all of them; team editors: their teams').
 */
export const adminSuggestionsRoutes: FastifyPluginAsyncTypebox<{
  suggestions: SuggestionsService;
}> = async (app, { suggestions }) => {
  app.get(
    '/suggestions',
    {
      schema: {
        ...adminRoute,
        summary: 'Suggestions to the spaces you run, newest first (open ones unless `status`)',
        querystring: AdminSuggestionsQuery,
        response: { 200: AdminSuggestionsResponse, ...errorAnswers },
      },
    },
    async (request) => suggestions.list(caller(request), request.query),
  );

  app.post(
    '/suggestions/:id/accept',
    {
      schema: {
        ...adminRoute,
        summary:
          'Accept a suggestion: its link, edited if given, goes at the end of its collection',
        params: IdParams,
        body: AcceptSuggestionBody,
        response: { 200: AdminSuggestion, ...bodyErrorAnswers },
      },
    },
    async (request) => {
      const me = caller(request);
      return suggestions.accept(me, originOf(request), request.params.id, request.body);
    },
  );

  app.post(
    '/suggestions/:id/decline',
    {
      schema: {
        ...adminRoute,
        summary: 'Decline a suggestion, with an optional reason its author sees',
        params: IdParams,
        body: DeclineSuggestionBody,
        response: { 200: AdminSuggestion, ...bodyErrorAnswers },
      },
    },
    async (request) => {
      const me = caller(request);
      return suggestions.decline(me, originOf(request), request.params.id, request.body);
    },
  );
};

/** `/api/consumer/suggestions`: what became of the caller's own suggestions. */
export const ownSuggestionsRoutes: FastifyPluginAsyncTypebox<{
  suggestions: SuggestionsService;
}> = async (app, { suggestions }) => {
  app.get(
    '/suggestions',
    {
      schema: {
        ...consumerRoute,
        summary: 'Your own suggestions, newest first, with their status and where they went',
        querystring: OwnSuggestionsQuery,
        response: { 200: OwnSuggestionsResponse, ...errorAnswers },
      },
    },
    async (request) => suggestions.mine(caller(request), request.query),
  );
};
