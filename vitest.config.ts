import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { viteAliases } from './vite.aliases.ts';

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias: viteAliases('#shared', '#main', '#support') },
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'src/main/**/*.test.ts',
            'src/shared/**/*.test.ts',
            'src/preload/**/*.test.ts',
            'eslint-rules/**/*.test.ts',
            'test/**/*.test.ts',
          ],
          exclude: ['test/e2e/**'],
          testTimeout: 20_000,
        },
      },
      {
        plugins: [react()],
        // tsconfig.web.json types no more of test/support than #support/renderer/….
        resolve: { alias: viteAliases('#shared', '#support') },
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['src/renderer/**/*.test.{ts,tsx}'],
          // jsdom screens on a shared 2-core machine: 5 s timed out under load, never alone.
          testTimeout: 15_000,
          setupFiles: ['test/support/renderer/setup.ts'],
        },
      },
      {
        resolve: { alias: viteAliases('#shared', '#main', '#support') },
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
