import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { Endpoint, ParsedBody, ParsedParams, ParsedQuery, ResponseOf } from '../../contract/endpoint';
import type { AppInstance } from './fastify';

/** The request of a declared endpoint: params, query and body as its schemas parse them. */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Params: ParsedParams<E>;
  Querystring: ParsedQuery<E>;
  Body: ParsedBody<E>;
}>;

/** A handler answers with the declared body, or sends its own answer (files, streams) and returns the reply. */
export type EndpointHandler<E extends Endpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<ResponseOf<E> | FastifyReply> | ResponseOf<E> | FastifyReply;

function schemaOf(declaration: Endpoint): FastifySchema {
  const schema: FastifySchema = {};
  if (declaration.params) schema.params = declaration.params;
  if (declaration.query) schema.querystring = declaration.query;
  if (declaration.body) schema.body = declaration.body;
  if (declaration.response) schema.response = { [declaration.status ?? 200]: declaration.response };
  return schema;
}

/**
 * Registers the handler of an endpoint of the route table (contract/routes): method, path, schemas,
 * success status and access all come from the declaration, so a module supplies only what it does.
 */
export function handle<E extends Endpoint>(app: AppInstance, declaration: E, handler: EndpointHandler<E>): void {
  const status = declaration.status ?? 200;
  app.route({
    method: declaration.method,
    url: declaration.path,
    config: {
      access: declaration.access,
      answersDuringDatabaseOutage: declaration.answersDuringDatabaseOutage,
      endpoint: declaration,
    },
    schema: schemaOf(declaration),
    handler: async (request, reply) => {
      reply.code(status);
      return handler(request as unknown as EndpointRequest<E>, reply);
    },
  });
}
