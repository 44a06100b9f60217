package dev.evidencestore.persistence;

import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

@Entity
@Table(name = "finding_review")
public class FindingReviewEntity extends ReviewEntity {

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "finding_id")
    public FindingEntity finding;
}
