package dev.jobqueue.internal.admin;

import dev.jobqueue.internal.Messages;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Refuses an admin request whose path or query is not well-formed percent-encoded UTF-8 (a {@code %} without two
 * hex digits, or bytes that are no UTF-8), with 400 and JQ072, before Jakarta REST reads it: RESTEasy would log
 * each such request as a warning with a stack trace, and a client could fill the log with them.
 */
@WebFilter(filterName = "jobqueue-admin-request-target", urlPatterns = "/jobqueue/admin/*")
public class RequestTargetFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;
    private static final String REFUSAL = "{\"code\":\"JQ072\",\"error\":\"" + Messages.unreadableRequest(
            "its path or query is not well-formed percent-encoded UTF-8") + "\"}";

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (wellFormed(request.getRequestURI()) && wellFormed(request.getQueryString())) {
            chain.doFilter(request, response);
            return;
        }
        response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(REFUSAL);
    }

    /** Whether {@code raw} decodes, percent by percent, into well-formed UTF-8; null is. */
    static boolean wellFormed(String raw) {
        if (raw == null) {
            return true;
        }
        ByteBuffer bytes = ByteBuffer.allocate(raw.length() * 4);
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= raw.length() || Character.digit(raw.charAt(i + 1), 16) < 0
                        || Character.digit(raw.charAt(i + 2), 16) < 0) {
                    return false;
                }
                bytes.put((byte) Integer.parseInt(raw, i + 1, i + 3, 16));
                i += 2;
            } else {
                bytes.put(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        bytes.flip();
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes);
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
