import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { controlCharacterMessage, findControlCharacter } from '../../domain/text';
import { badRequest } from './errors';

/**
 * The validator of every route: the route's zod schema, after one rule that holds for every text
 * input of the API (src/domain/text.ts): no control characters in a body, a query or a path. It
 * runs before the handler, so a NUL never reaches PostgreSQL (which refuses it with a 500) or a log.
 */
export const validatorCompiler: FastifySchemaCompiler<ZodType> = (route) => {
  const validate = zodValidatorCompiler(route);
  if (route.httpPart === 'headers') return validate;
  return (data) => {
    const at = findControlCharacter(data);
    if (at !== null) {
      const message = controlCharacterMessage(at || route.httpPart || 'Text');
      return { error: badRequest(message, { fields: { [at || '_']: message } }) };
    }
    return validate(data);
  };
};
