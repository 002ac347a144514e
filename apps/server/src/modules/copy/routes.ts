import {
  ApiPath,
  pageQuery,
  ZCopyActivityView,
  ZCopyEditRequest,
  ZCopyFollowRequest,
  ZCopyIdRequest,
  ZCopyPauseRequest,
  ZCopyPreviewView,
  ZCopyProviderQuery,
  ZCopyProviderRequest,
  ZCopyProviderUpdate,
  ZCopyUnfollowRequest,
  ZCopyView,
  ZMyProviderView,
  ZProviderEntryView,
  ZProviderListQuery,
  ZProviderProfileView,
} from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../http/auth.js';
import { ok, parse } from '../../http/envelope.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import { perSession, requestInput } from '../../http/requests.js';
import type { CopyService } from './service.js';

const COPY_LIMITS = { write: perSession(60), read: perSession(600) };

const ZPreviewQuery = ZCopyFollowRequest;
const ZActivityQuery = ZCopyIdRequest.extend(pageQuery.shape);

export function copyRoutes(copy: CopyService) {
  return (instance: FastifyInstance) => {
    const app = instance.withTypeProvider<DocumentedTypeProvider>();

    app.get(
      ApiPath.followList,
      { schema: { querystring: ZProviderListQuery, response: answers(z.array(ZProviderEntryView)) } },
      async (request) => ok(request, await copy.providers.list(parse(ZProviderListQuery, request.query))),
    );

    app.get(
      ApiPath.copyProvider,
      { schema: { querystring: ZCopyProviderQuery, response: answers(ZProviderProfileView) } },
      async (request) => {
        const { provider_id } = parse(ZCopyProviderQuery, request.query);
        return ok(request, await copy.providers.profile(provider_id, request.principal?.userId ?? null, request.lang));
      },
    );

    app.get(
      ApiPath.copyPreview,
      { ...COPY_LIMITS.read, schema: { querystring: ZPreviewQuery, response: answers(ZCopyPreviewView) } },
      async (request) => {
        const { userId } = requireUser(request);
        const query = parse(ZPreviewQuery, request.query);
        return ok(request, await copy.follows.preview(userId, query.provider_id, query.amount, query.stop_loss_pct));
      },
    );

    app.post(
      ApiPath.copyFollow,
      { ...COPY_LIMITS.write, schema: { body: ZCopyFollowRequest, response: answers(ZCopyView) } },
      async (request) => {
        const { userId } = requireUser(request);
        return ok(request, await copy.follows.follow(userId, parse(ZCopyFollowRequest, requestInput(request))));
      },
    );

    app.post(
      ApiPath.copyEdit,
      { ...COPY_LIMITS.write, schema: { body: ZCopyEditRequest, response: answers(ZCopyView) } },
      async (request) => {
        const { userId } = requireUser(request);
        return ok(request, await copy.follows.edit(userId, parse(ZCopyEditRequest, requestInput(request))));
      },
    );

    app.post(
      ApiPath.copyPause,
      { ...COPY_LIMITS.write, schema: { body: ZCopyPauseRequest, response: answers(ZCopyView) } },
      async (request) => {
        const { userId } = requireUser(request);
        return ok(request, await copy.follows.pause(userId, parse(ZCopyPauseRequest, requestInput(request))));
      },
    );

    app.post(
      ApiPath.copyUnfollow,
      { ...COPY_LIMITS.write, schema: { body: ZCopyUnfollowRequest, response: answers(ZCopyView) } },
      async (request) => {
        const { userId } = requireUser(request);
        return ok(request, await copy.follows.unfollow(userId, parse(ZCopyUnfollowRequest, requestInput(request))));
      },
    );

    app.get(ApiPath.copyMine, { ...COPY_LIMITS.read, schema: { response: answers(z.array(ZCopyView)) } }, async (request) => {
      const { userId } = requireUser(request);
      return ok(request, await copy.follows.list(userId));
    });

    app.get(
      ApiPath.copyActivity,
      { ...COPY_LIMITS.read, schema: { querystring: ZActivityQuery, response: answers(z.array(ZCopyActivityView)) } },
      async (request) => {
        const { userId } = requireUser(request);
        const { copy_id, page } = parse(ZActivityQuery, request.query);
        return ok(request, await copy.follows.activity(userId, copy_id, page));
      },
    );

    app.get(
      ApiPath.providerMine,
      { ...COPY_LIMITS.read, schema: { response: answers(ZMyProviderView.nullable()) } },
      async (request) => {
        const { userId } = requireUser(request);
        return ok(request, await copy.providers.mine(userId));
      },
    );

    app.post(
      ApiPath.providerBecome,
      { ...COPY_LIMITS.write, schema: { body: ZCopyProviderRequest, response: answers(ZMyProviderView) } },
      async (request) => {
        const { userId } = requireUser(request);
        return ok(request, await copy.providers.become(userId, parse(ZCopyProviderRequest, requestInput(request))));
      },
    );

    app.post(
      ApiPath.providerUpdate,
      { ...COPY_LIMITS.write, schema: { body: ZCopyProviderUpdate, response: answers(ZMyProviderView) } },
      async (request) => {
        const { userId } = requireUser(request);
        return ok(request, await copy.providers.update(userId, parse(ZCopyProviderUpdate, requestInput(request))));
      },
    );

    app.post(ApiPath.providerStop, { ...COPY_LIMITS.write, schema: { response: answers(ZMyProviderView) } }, async (request) => {
      const { userId } = requireUser(request);
      return ok(request, await copy.providers.stopBeing(userId));
    });
  };
}
