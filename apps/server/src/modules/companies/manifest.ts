import type { CompanyRecord } from './service.js';

/** A home-screen label longer than this is cut by launchers; the full name stays in `name`. */
const SHORT_NAME_LENGTH = 12;

/**
 * The web app manifest, built per company so an installed app carries the name of the site it was
 * installed from. Everything else (icons shipped with the app, start URL, display) is the same for all,
 * which keeps the app installable whatever the company.
 */
export function appManifest(company: Pick<CompanyRecord, 'name'>) {
  const characters = [...company.name];
  const shortName = characters.length > SHORT_NAME_LENGTH ? characters.slice(0, SHORT_NAME_LENGTH).join('').trim() : company.name;
  return {
    name: company.name,
    short_name: shortName,
    description: `${company.name}: trade forex, metals, indices and crypto from your phone.`,
    id: './',
    start_url: './',
    scope: './',
    display: 'standalone',
    orientation: 'portrait',
    background_color: '#f5f6f8',
    theme_color: '#1d4ed8',
    icons: [
      { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: 'icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      { src: 'icons/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    ],
  };
}
