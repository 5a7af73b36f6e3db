package dev.jobqueue.internal.dashboard;

import jakarta.servlet.http.HttpServletResponse;

/**
 * The headers every dashboard file is served with. The Content-Security-Policy lets the page run only this jar's
 * own scripts and styles and talk only to its own server: no inline script or style, nothing from another site,
 * and no framing, so an injected string cannot run and the page cannot be clickjacked.
 */
final class SecurityHeaders {

    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self';"
            + " img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none';"
            + " frame-ancestors 'none'";

    private SecurityHeaders() {
    }

    static void apply(HttpServletResponse response) {
        response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Referrer-Policy", "no-referrer");
        response.setHeader("X-Frame-Options", "DENY");
    }
}
