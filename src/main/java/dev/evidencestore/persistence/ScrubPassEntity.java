package dev.evidencestore.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/** One pass of the scrub; {@code finishedAt} stays null when the instance running it did not live to finish. */
@Entity
@Table(name = "scrub_pass")
public class ScrubPassEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "started_at")
    public Instant startedAt;

    @Column(name = "finished_at")
    public Instant finishedAt;

    @Column(name = "blobs_checked")
    public long blobsChecked;

    @Column(name = "bytes_read")
    public long bytesRead;

    @Column(name = "damaged_found")
    public long damagedFound;

    /** When the last complete pass finished; null before the first. */
    public static Instant lastFinishedAt() {
        ScrubPassEntity last = ScrubPassEntity.<ScrubPassEntity>find(
                "finishedAt is not null order by finishedAt desc").firstResult();
        return last == null ? null : last.finishedAt;
    }

    /** When the latest pass started, finished or not; null before the first. */
    public static Instant lastStartedAt() {
        ScrubPassEntity last = ScrubPassEntity.<ScrubPassEntity>find("order by startedAt desc").firstResult();
        return last == null ? null : last.startedAt;
    }
}
