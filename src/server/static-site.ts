/**
 * Serves the built web app (dist/web): hashed assets with a year-long immutable cache, other files
 * revalidated, and the app's routes (/, /about, /faq) as index.html with that page's title, meta
 * description and absolute canonical link written in (so link previews and crawlers see them without
 * JavaScript). Text files are compressed once (brotli or gzip, by Accept-Encoding) and kept in memory.
 */
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { PAGES, type PageMeta } from '../shared/pages';
import { lastForwarded } from './rate-limit';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};
const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.webmanifest',
  '.svg',
  '.txt',
  '.xml',
  '.map',
]);
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
/** Cap on what the in-memory cache holds (uncompressed bytes), so a big dist cannot exhaust memory. */
const CACHE_LIMIT_BYTES = 64 * 1024 * 1024;

interface CachedFile {
  mtimeMs: number;
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/**
 * The Content-Security-Policy of the app's documents, fitted to Vite's output: scripts and styles only
 * from files of this origin (index.html has no inline script or style; React sets styles through the
 * CSSOM, which style-src does not govern), images from here or data: URLs, the socket and the API on
 * this origin. `wsOrigin` (this page's ws: or wss: origin) is named beside 'self' for browsers whose
 * 'self' does not cover WebSockets yet (older Safari); without it they would stay on long-polling.
 * frame-ancestors 'none' (and X-Frame-Options for browsers without it): no other site may frame the
 * host's buttons under an invisible layer (clickjacking).
 */
function contentSecurityPolicy(wsOrigin: string | undefined): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${wsOrigin ? ` ${wsOrigin}` : ''}`,
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers every answer of the static site carries (its documents, files and 404s). */
function setSecurityHeaders(res: ServerResponse, wsOrigin: string | undefined): void {
  res.setHeader('Content-Security-Policy', contentSecurityPolicy(wsOrigin));
  res.setHeader('X-Frame-Options', 'DENY');
  // Join links carry the room code in their query (/?join=CODE): never send it to another site.
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

/** Escapes text for an HTML attribute or element body. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Writes a page's head tags into index.html: replaces the <title>, the meta description, the
 * canonical link and the og:title/og:description/og:url tags the file has, and adds what is missing.
 */
export function injectPageMeta(html: string, page: PageMeta, canonicalUrl: string): string {
  const title = escapeHtml(page.title);
  const description = escapeHtml(page.description);
  const url = escapeHtml(canonicalUrl);
  const cleaned = html
    .replace(/<title>[\s\S]*?<\/title>\s*/i, '')
    .replace(/<meta\s+name=["']description["'][^>]*>\s*/gi, '')
    .replace(/<link\s+rel=["']canonical["'][^>]*>\s*/gi, '')
    .replace(/<meta\s+property=["']og:(title|description|url)["'][^>]*>\s*/gi, '');
  const tags =
    `<title>${title}</title>\n    <meta name="description" content="${description}" />\n` +
    `    <link rel="canonical" href="${url}" />\n` +
    `    <meta property="og:title" content="${title}" />\n` +
    `    <meta property="og:description" content="${description}" />\n` +
    `    <meta property="og:url" content="${url}" />\n  `;
  const at = cleaned.search(/<\/head>/i);
  return at === -1 ? `${tags}${cleaned}` : `${cleaned.slice(0, at)}${tags}${cleaned.slice(at)}`;
}

/** Options of the static site. */
export interface StaticSiteOptions {
  /** Directory of the built app (holds index.html and assets/). */
  webDir: string;
  /** Origin for canonical links, without trailing slash; else from the request. */
  publicUrl: string | undefined;
  /** Trust X-Forwarded-Proto / X-Forwarded-Host for the request origin. */
  trustProxy: boolean;
  /** What the in-memory cache holds at most (uncompressed bytes); default 64 MiB. For tests. */
  cacheLimitBytes?: number;
}

/**
 * A request handler for the static site. Returns false when it did not handle the request
 * (not GET/HEAD), so the caller can answer 404/405.
 */
export function createStaticSite(options: StaticSiteOptions) {
  const root = resolve(options.webDir);
  const cacheLimit = options.cacheLimitBytes ?? CACHE_LIMIT_BYTES;
  const cache = new Map<string, CachedFile>();
  let cachedBytes = 0;
  /**
   * Forgets a file's entry and gives its bytes back to the budget: a file rebuilt while the server
   * runs replaces its entry, one found deleted leaves none, and the earliest cached go to make room
   * (a rebuild's assets have new names; the old ones are never asked for again). Before session 31
   * the old bytes stayed counted, so after a few rebuilds of the web app nothing more was cached
   * (every asset read from disk and compressed again on every request).
   */
  const drop = (file: string) => {
    const old = cache.get(file);
    if (old === undefined) return;
    cache.delete(file);
    cachedBytes -= old.body.length;
  };

  const load = async (file: string): Promise<CachedFile | null> => {
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(file);
    } catch {
      drop(file);
      return null;
    }
    if (!info.isFile()) {
      drop(file);
      return null;
    }
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === info.mtimeMs) return hit;
    const entry: CachedFile = { mtimeMs: info.mtimeMs, body: await readFile(file) };
    drop(file);
    if (entry.body.length <= cacheLimit) {
      for (const earliest of cache.keys()) {
        if (cachedBytes + entry.body.length <= cacheLimit) break;
        drop(earliest);
      }
      cache.set(file, entry);
      cachedBytes += entry.body.length;
    }
    return entry;
  };

  const originOf = (req: IncomingMessage): string => {
    if (options.publicUrl) return options.publicUrl;
    // Behind a trusted proxy, the right-most entry: the one that proxy wrote (as clientIp reads
    // X-Forwarded-For). Entries left of it came from the client, which could name any host there
    // and have it written into the page's canonical and og:url links (and a cache keyed on the URL
    // and Host only would keep that page for everyone).
    const forwarded = (name: string) => (options.trustProxy ? lastForwarded(req.headers, name) : undefined);
    const forwardedProto = forwarded('x-forwarded-proto');
    const forwardedHost = forwarded('x-forwarded-host');
    const proto = forwardedProto === 'https' || 'encrypted' in req.socket ? 'https' : 'http';
    const rawHost = forwardedHost ?? req.headers.host?.trim() ?? 'localhost';
    // Only host-name characters: a forged Host header cannot smuggle markup into the page.
    const host = /^[A-Za-z0-9.\-:[\]]{1,255}$/.test(rawHost) ? rawHost : 'localhost';
    return `${proto}://${host}`;
  };

  /** This page's WebSocket origin (the canonical origin's scheme and host, as ws: or wss:). */
  const wsOriginOf = (req: IncomingMessage): string | undefined => {
    try {
      const { protocol, host } = new URL(originOf(req));
      return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}`;
    } catch {
      return undefined;
    }
  };

  const send = (
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    type: string,
    cacheControl: string,
    file: CachedFile,
    compressible: boolean,
  ) => {
    res.statusCode = status;
    res.setHeader('Content-Type', type);
    res.setHeader('Cache-Control', cacheControl);
    setSecurityHeaders(res, wsOriginOf(req));
    let body = file.body;
    if (compressible && body.length > 1024) {
      res.setHeader('Vary', 'Accept-Encoding');
      const accept = String(req.headers['accept-encoding'] ?? '');
      if (/\bbr\b/.test(accept)) {
        file.br ??= brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } });
        body = file.br;
        res.setHeader('Content-Encoding', 'br');
      } else if (/\bgzip\b/.test(accept)) {
        file.gzip ??= gzipSync(body, { level: 9 });
        body = file.gzip;
        res.setHeader('Content-Encoding', 'gzip');
      }
    }
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const pages = new Map<string, CachedFile>();
  const servePage = async (req: IncomingMessage, res: ServerResponse, page: PageMeta, status: number) => {
    const index = await load(join(root, 'index.html'));
    if (!index) {
      res.statusCode = 503;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      setSecurityHeaders(res, wsOriginOf(req));
      res.setHeader('Retry-After', '5');
      res.end('The web app is not built yet. Run `npm run build` (npm start builds it on first start).\n');
      return;
    }
    const canonical = `${originOf(req)}${page.path}`;
    const key = `${canonical}\n${index.mtimeMs}`;
    let html = pages.get(key);
    if (!html) {
      html = {
        mtimeMs: index.mtimeMs,
        body: Buffer.from(injectPageMeta(index.body.toString('utf8'), page, canonical)),
      };
      if (pages.size > 100) pages.clear();
      pages.set(key, html);
    }
    send(req, res, status, TYPES['.html']!, REVALIDATE, html, true);
  };

  return async function serveStatic(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = new URL(req.url ?? '/', 'http://x');
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      pathname = '/';
    }
    const route = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
    const page = (PAGES as Record<string, PageMeta | undefined>)[route];
    if (page) {
      await servePage(req, res, page, 200);
      return true;
    }
    const ext = extname(pathname).toLowerCase();
    const file = normalize(join(root, pathname));
    if (!pathname.includes('\0') && file.startsWith(root + sep) && ext !== '') {
      const found = await load(file);
      if (found) {
        const immutable = pathname.startsWith('/assets/');
        send(
          req,
          res,
          200,
          TYPES[ext] ?? 'application/octet-stream',
          immutable ? IMMUTABLE : REVALIDATE,
          found,
          COMPRESSIBLE.has(ext),
        );
        return true;
      }
    }
    if (ext === '') {
      // An unknown route: the app renders its own not-found view; the status tells crawlers.
      await servePage(req, res, PAGES['/'], 404);
      return true;
    }
    res.statusCode = 404;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    setSecurityHeaders(res, wsOriginOf(req));
    res.end('Not found\n');
    return true;
  };
}
