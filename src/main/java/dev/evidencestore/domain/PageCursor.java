package dev.evidencestore.domain;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;

/** An opaque position in a newest-first listing: the creation time and row id of the last item seen. */
public record PageCursor(Instant createdAt, long id) {

    public static PageCursor parse(String text) {
        try {
            String decoded = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.US_ASCII);
            String[] parts = decoded.split("/", -1);
            if (parts.length != 2) {
                throw new IllegalArgumentException();
            }
            long micros = Long.parseLong(parts[0]);
            Instant createdAt = Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
            // cursors this service issues carry creation times, which lie in years PostgreSQL can compare
            if (createdAt.isBefore(Instant.parse("0001-01-01T00:00:00Z"))
                    || createdAt.isAfter(Instant.parse("9999-12-31T23:59:59Z"))) {
                throw new IllegalArgumentException();
            }
            return new PageCursor(createdAt, Long.parseLong(parts[1]));
        } catch (IllegalArgumentException | ArithmeticException | DateTimeException e) {
            throw Refusal.invalid("cursor", "is not a cursor this service issued");
        }
    }

    @Override
    public String toString() {
        long micros = ChronoUnit.MICROS.between(Instant.EPOCH, createdAt);
        String plain = micros + "/" + id;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.US_ASCII));
    }
}
