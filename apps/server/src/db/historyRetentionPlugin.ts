import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HistoryRetention, historyRetentionDefaults } from './historyRetention.js';
import { syncPlugin } from '../http/syncPlugin.js';

/**
 * Location history maintenance with the app's lifecycle: PostgreSQL's day partitions exist before
 * the server is ready (so fixes land in their day, not the default partition), retention runs in
 * the background every hour, and close() waits for a run in progress.
 */
export const historyRetentionPlugin = fp(
  syncPlugin((app: FastifyInstance) => {
    const { db, dialect, config } = app.deps;
    const retention = new HistoryRetention(
      db,
      dialect,
      {
        ...historyRetentionDefaults,
        retentionDays: config.historyRetentionDays,
        onRun: (run) => app.log.info({ ...run }, 'location history maintenance'),
        onError: (error) => app.log.error({ err: error }, 'location history maintenance failed'),
      },
      app.deps.clock,
    );
    app.addHook('onReady', () => retention.start());
    app.addHook('onClose', () => retention.stop());
  }),
  { name: 'historyRetention' },
);
