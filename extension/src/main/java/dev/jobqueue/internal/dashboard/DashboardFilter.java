package dev.jobqueue.internal.dashboard;

import dev.jobqueue.internal.admin.AdminRoles;
import dev.jobqueue.internal.config.NodeSettings;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Serves the dashboard: the page at {@code <context root>/jobqueue/} and its scripts, styles and icon under
 * {@code /jobqueue/ui/}, from this jar. The page reads and acts through the admin REST API beside it, which checks
 * every request itself. It is a filter, not a servlet, so that it answers these paths whatever servlets the
 * application and the admin API's own {@code /jobqueue/*} mapping put there (Liberty gives {@code /jobqueue/} to
 * the admin API's servlet even over a servlet mapped to it exactly); admin API requests pass on untouched.
 * Only users in the role jobqueue-viewer or jobqueue-admin get the files: anyone not signed in is asked to sign in
 * with the application's own login, and anyone else gets 403. {@code jobqueue.dashboard.enabled=false} answers
 * 404.
 */
@WebFilter(filterName = "jobqueue-dashboard", urlPatterns = {"/jobqueue", "/jobqueue/*"})
public class DashboardFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;
    private static final String PAGE_PATH = "/jobqueue/";
    private static final String FILES_PATH = "/jobqueue/ui/";

    @Inject
    transient NodeSettings settings;

    private final transient DashboardFiles files = new DashboardFiles();

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        boolean page = path.equals(PAGE_PATH);
        if (!page && !path.equals("/jobqueue") && !path.startsWith(FILES_PATH)) {
            chain.doFilter(request, response);
            return;
        }
        if (!settings.dashboardEnabled()) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND,
                    "the jobqueue dashboard is disabled (" + NodeSettings.DASHBOARD_ENABLED + "=false)");
            return;
        }
        if (!signedIn(request, response)) {
            return;
        }
        if (path.equals("/jobqueue")) {
            response.sendRedirect(request.getContextPath() + PAGE_PATH);
            return;
        }
        SecurityHeaders.apply(response);
        if (!request.getMethod().equals("GET") && !request.getMethod().equals("HEAD")) {
            response.setHeader("Allow", "GET, HEAD");
            response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            return;
        }
        DashboardFiles.File file = files.find(page ? DashboardFiles.PAGE : path.substring(FILES_PATH.length()))
                .orElse(null);
        if (file == null) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        send(file, request, response);
    }

    /**
     * Whether the user may see the dashboard; if not, the answer has been sent: the server's login challenge for
     * someone not signed in, 403 for a user in neither role.
     */
    private static boolean signedIn(HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        if (request.getUserPrincipal() == null && !authenticate(request, response)) {
            return false;
        }
        if (request.isUserInRole(AdminRoles.ADMIN) || request.isUserInRole(AdminRoles.VIEWER)) {
            return true;
        }
        response.sendError(HttpServletResponse.SC_FORBIDDEN, "the role " + AdminRoles.VIEWER + " or "
                + AdminRoles.ADMIN + " is required");
        return false;
    }

    /**
     * Asks the server to authenticate the user; false if it could not, and the answer is its login challenge.
     * Liberty sends the challenge and returns false, as the Servlet specification says. WildFly (Undertow with
     * Elytron) throws a ServletException ("UT010032: Authentication failed") instead and sends nothing: then the
     * answer is the challenge of the admin API, 401 asking for HTTP Basic.
     */
    private static boolean authenticate(HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        try {
            return request.authenticate(response);
        } catch (ServletException e) {
            if (!response.isCommitted()) {
                response.setHeader("WWW-Authenticate", "Basic realm=\"jobqueue\"");
                response.sendError(HttpServletResponse.SC_UNAUTHORIZED);
            }
            return false;
        }
    }

    private static void send(DashboardFiles.File file, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        response.setHeader("Cache-Control", "no-cache");
        response.setHeader("ETag", file.etag());
        if (file.etag().equals(request.getHeader("If-None-Match"))) {
            response.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
            return;
        }
        response.setContentType(file.contentType());
        response.setContentLength(file.content().length);
        if (request.getMethod().equals("GET")) {
            response.getOutputStream().write(file.content());
        }
    }
}
