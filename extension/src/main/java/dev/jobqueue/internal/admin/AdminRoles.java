package dev.jobqueue.internal.admin;

/**
 * The roles of the admin API and the dashboard, and the header that marks a change as made by a script or the
 * dashboard rather than by a link on another site. Who has the roles is configured in the server, by a role
 * binding or a group of the same name.
 */
public final class AdminRoles {

    /** The role a user must have to change anything. */
    public static final String ADMIN = "jobqueue-admin";
    /** The role of a user who may read everything and change nothing. */
    public static final String VIEWER = "jobqueue-viewer";
    /** The header every request that changes something must carry, with any value. */
    public static final String REQUESTED_BY = "X-Requested-By";

    private AdminRoles() {
    }
}
