package dev.evidencestore.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Immutable;

import java.time.Instant;

/** A blob the service has acknowledged; its bytes are in the configured backend. */
@Entity
@Immutable
@Table(name = "blob")
public class BlobEntity extends PanacheEntityBase {

    @Id
    public String digest;

    public long size;

    @Column(name = "created_at")
    public Instant createdAt;
}
