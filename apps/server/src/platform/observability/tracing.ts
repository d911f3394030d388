import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Span, type SpanContext } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';

/**
 * OpenTelemetry traces, off by default: `OTEL_EXPORTER_OTLP_ENDPOINT` (e.g. http://collector:4318) turns them
 * on (OTLP over HTTP; the exporter reads the standard OTEL_* variables). A job's trace spans the HTTP request
 * that created it, its dispatch (`job.dispatch`), the launcher's run (`launcher.run`, in the launcher process:
 * the dispatcher sends a W3C `traceparent` header with the job) and the result storage (`job.store_result`).
 * Without a provider the API's tracer is a no-op, so the spans cost next to nothing when tracing is off.
 */
export const tracer = () => trace.getTracer('lamella-server');

let enabled = false;
export const tracingEnabled = () => enabled;

/** Registers the global tracer provider; `exporter` (tests: InMemorySpanExporter) replaces OTLP and exports at once. */
export function initTracing(opts: { serviceName: string; endpoint?: string | null; exporter?: SpanExporter }): NodeTracerProvider | null {
  if (!opts.exporter && !opts.endpoint) return null;
  const exporter = opts.exporter ?? new OTLPTraceExporter({ url: `${opts.endpoint!.replace(/\/$/, '')}/v1/traces` });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': opts.serviceName }),
    spanProcessors: [opts.exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter)],
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  enabled = true;
  return provider;
}

const requestSpans = new WeakMap<FastifyRequest, Span>();

/** The request's span context (the parent of the jobs it creates), when tracing is on. */
export function requestSpanContext(): SpanContext | undefined {
  return trace.getActiveSpan()?.spanContext();
}

/**
 * A server span per HTTP request (`GET /api/jobs/:id`: the route pattern), continuing a caller's `traceparent`.
 * Must be registered before the routes: each handler runs with its request's span active, so spans and jobs
 * it starts belong to the request's trace.
 */
export function registerHttpTracing(app: FastifyInstance): void {
  if (!enabled) return;
  app.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const span = requestSpans.get(request);
      if (!span) return handler.call(this, request, reply);
      return context.with(trace.setSpan(context.active(), span), () => handler.call(this, request, reply));
    } as RouteHandlerMethod;
  });
  app.addHook('onRequest', async (request) => {
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const routeUrl = request.routeOptions.url ?? 'unmatched';
    const span = tracer().startSpan(
      `${request.method} ${routeUrl}`,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, 'http.route': routeUrl, 'lamella.request_id': request.id } },
      parent,
    );
    requestSpans.set(request, span);
  });
  app.addHook('onResponse', async (request, reply) => {
    const span = requestSpans.get(request);
    if (!span) return;
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (request.auth) span.setAttribute('lamella.user_id', request.auth.user.id);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
}

/** The headers that carry the active trace context to another service (`traceparent`). */
export function traceHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  propagation.inject(context.active(), headers);
  return headers;
}

/** Runs `fn` in a span (ended when it settles; a throw marks it failed). */
export async function inSpan<T>(
  name: string,
  attributes: Record<string, string | number | boolean>,
  fn: (span: Span) => Promise<T>,
  parent?: SpanContext | null,
): Promise<T> {
  const ctx = parent ? trace.setSpanContext(ROOT_CONTEXT, parent) : context.active();
  return tracer().startActiveSpan(name, { attributes }, ctx, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      span.end();
    }
  });
}
