import sanitizeHtml from 'sanitize-html';

/**
 * What stored HTML (news, announcements) may contain: text formatting, lists, links and images over
 * http(s). Scripts, styles, frames and event handlers are dropped before the HTML is stored; the app
 * sanitises again before showing it.
 */
const CONTENT_RULES: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img'],
  allowedAttributes: { a: ['href', 'title'], img: ['src', 'alt', 'width', 'height'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }) },
};

export const sanitizeContentHtml = (html: string) => sanitizeHtml(html, CONTENT_RULES);
