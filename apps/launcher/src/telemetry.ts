import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * The launcher's JSON log lines (pino; `LOG_LEVEL`, default info), in the server's shape: `service`, and on every
 * line about a job its `jobId`, `launcherId` (the server's id of this launcher, sent with the job), `model` and
 * `modelVersion`. No image data, settings or personal data are logged.
 */
export function createLogger(level = process.env.LOG_LEVEL ?? 'info', stream?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'launcher', pid: process.pid },
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  return stream ? pino(options, stream) : pino(options);
}

/**
 * Traces (off by default): `OTEL_EXPORTER_OTLP_ENDPOINT` turns them on. The run of a job continues the trace of
 * the server's dispatch through the `traceparent` header of POST /run (server.ts).
 */
export function initTracing(endpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT): NodeTracerProvider | null {
  if (!endpoint) return null;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME ?? 'lamella-launcher' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` }))],
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  return provider;
}
