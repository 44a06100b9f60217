package dev.evidencestore.audit;

/** The pause of the log's background threads after the database failed them, before they try again. */
final class Backoff {

    private Backoff() {
    }

    /** Sleeps {@code millis}; false when the thread was interrupted, which tells it to stop. */
    static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            return false;
        }
    }
}
