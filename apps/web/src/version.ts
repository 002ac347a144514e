/** Filled in by Vite at build time from apps/web/package.json (vite.config.ts `define`). */
declare const __APP_VERSION__: string;

export const APP_VERSION: string = __APP_VERSION__;
