package dev.evidencestore.persistence;

import dev.evidencestore.domain.Incident;
import dev.evidencestore.domain.IncidentDetails;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.IncidentStatus;
import dev.evidencestore.domain.Narrative;
import dev.evidencestore.domain.Severity;
import dev.evidencestore.domain.Workspace;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.Session;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.annotations.NaturalId;
import org.hibernate.type.SqlTypes;

import java.time.Instant;
import java.util.List;

@Entity
@Table(name = "incident")
public class IncidentEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @NaturalId
    public String workspace;

    @NaturalId
    @Column(name = "incident_key")
    public String key;

    public String title;
    public String severity;
    public String status;

    @JdbcTypeCode(SqlTypes.ARRAY)
    public String[] services;

    @JdbcTypeCode(SqlTypes.ARRAY)
    public String[] regions;

    @Column(name = "impact_start")
    public Instant impactStart;

    @Column(name = "impact_end")
    public Instant impactEnd;

    public String commander;

    @JdbcTypeCode(SqlTypes.ARRAY)
    public String[] responders;

    @Column(name = "review_owner")
    public String reviewOwner;

    public String summary;

    @Column(name = "investigation_question")
    public String investigationQuestion;

    public String impact;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(name = "contributing_factors")
    public String[] contributingFactors;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(name = "went_well")
    public String[] wentWell;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(name = "made_harder")
    public String[] madeHarder;

    @Column(name = "detection_gap")
    public String detectionGap;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "updated_at")
    public Instant updatedAt;

    @Column(name = "created_by")
    public String createdBy;

    /** The principal of {@link #createdBy}; null on rows written before principals were recorded. */
    @Column(name = "created_by_principal")
    public String createdByPrincipal;

    /**
     * The incident by workspace and key, its natural ID: a transaction that asks again (a postmortem asks six times)
     * gets the row it already loaded, without a query. Null when there is none.
     */
    public static IncidentEntity byKey(Workspace workspace, IncidentKey key) {
        return getEntityManager().unwrap(Session.class).byNaturalId(IncidentEntity.class)
                .using("workspace", workspace.slug()).using("key", key.value()).load();
    }

    public void describe(IncidentDetails details) {
        title = details.title();
        severity = details.severity().wire();
        status = details.status().wire();
        services = details.services().toArray(String[]::new);
        regions = details.regions().toArray(String[]::new);
        impactStart = details.impactStart();
        impactEnd = details.impactEnd();
        commander = details.commander();
        responders = details.responders().toArray(String[]::new);
        reviewOwner = details.reviewOwner();
        summary = details.summary();
        Narrative narrative = details.narrative();
        investigationQuestion = narrative.investigationQuestion();
        impact = narrative.impact();
        contributingFactors = narrative.contributingFactors().toArray(String[]::new);
        wentWell = narrative.wentWell().toArray(String[]::new);
        madeHarder = narrative.madeHarder().toArray(String[]::new);
        detectionGap = narrative.detectionGap();
    }

    public IncidentDetails details() {
        return new IncidentDetails(title, Severity.parse(severity), IncidentStatus.parse(status), List.of(services),
                List.of(regions), impactStart, impactEnd, commander, List.of(responders), reviewOwner, summary,
                new Narrative(investigationQuestion, impact, List.of(contributingFactors), List.of(wentWell),
                        List.of(madeHarder), detectionGap));
    }

    public Incident toIncident() {
        return new Incident(new Workspace(workspace), new IncidentKey(key), details(), createdAt, updatedAt, createdBy);
    }
}
