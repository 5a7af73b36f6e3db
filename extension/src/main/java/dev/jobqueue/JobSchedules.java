package dev.jobqueue;

import java.util.Optional;

/**
 * Creates, changes and deletes recurring schedules in code. Inject it with {@code @Inject JobSchedules schedules;}.
 * Each call joins the caller's JTA transaction, as a put does. Schedules declared with {@link Recurring} are
 * made at deployment; this is for the ones that come from data.
 */
public interface JobSchedules {

    /**
     * Creates the schedule, or changes the one of that name. A changed expression or zone takes effect from now:
     * the next occurrence is the first after now.
     *
     * @throws IllegalArgumentException naming the schedule, if its name, expression or zone is not valid, no
     *                                  {@code @Consumer} in this application consumes its queue, or
     *                                  {@link Recurring} declares a schedule of that name
     * @throws InvalidPayloadException  if the payload cannot be serialised
     */
    void save(Schedule schedule);

    /** Deletes a schedule; its occurrences' jobs stay. Returns false if there was none of that name. */
    boolean delete(String name);

    /** The schedule of that name. */
    Optional<ScheduleInfo> find(String name);
}
