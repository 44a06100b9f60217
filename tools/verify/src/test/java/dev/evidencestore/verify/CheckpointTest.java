package dev.evidencestore.verify;

import org.junit.jupiter.api.Test;

import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checkpoint note text of C2SP tlog-checkpoint, with the spec's example. */
class CheckpointTest {

    private static final String EXAMPLE = "example.com/behind-the-sofa\n20852163\n"
            + "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n";
    private static final String EXAMPLE_NOTE = EXAMPLE + "\n\u2014 example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1M"
            + "yq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=\n";

    @Test
    void theSpecsExampleReads() {
        Checkpoint checkpoint = Checkpoint.parse(EXAMPLE);
        assertEquals("example.com/behind-the-sofa", checkpoint.origin());
        assertEquals(20852163L, checkpoint.size());
        assertArrayEquals(Base64.getDecoder().decode("CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I="),
                checkpoint.rootHash());
        assertEquals(List.of(), checkpoint.extensions());
        assertEquals(EXAMPLE, checkpoint.body());
        SignedNote note = SignedNote.parse(EXAMPLE_NOTE);
        assertEquals(checkpoint, Checkpoint.parse(note.body()));
        assertEquals("example.com/behind-the-sofa", note.signatures().get(0).keyName());
    }

    @Test
    void extensionLinesFollowTheRoot() {
        Checkpoint checkpoint = new Checkpoint("log.example/a", 0, MerkleHash.empty(), List.of("x", "y z"));
        assertEquals("log.example/a\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\nx\ny z\n", checkpoint.body());
        assertEquals(checkpoint, Checkpoint.parse(checkpoint.body()));
    }

    @Test
    void aSignedCheckpointVerifies() {
        Checkpoint checkpoint = new Checkpoint("PeterNeumann", 8, MerkleHash.leaf(new byte[0]));
        String note = SignedNote.sign(checkpoint.body(), "PeterNeumann", SignedNoteTest.peterPrivateKey());
        SignedNote read = SignedNote.parse(note);
        assertTrue(read.verify(NoteKey.parse(SignedNoteTest.PETER_KEY)));
        assertEquals(checkpoint, Checkpoint.parse(read.body()));
    }

    @Test
    void malformedCheckpointsAreRefused() {
        String root = "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=";
        for (String body : List.of("", "o\n1\n", "o\n1\n" + root, "\n1\n" + root + "\n", "o\n01\n" + root + "\n",
                "o\n-1\n" + root + "\n", "o\n+1\n" + root + "\n", "o\n1 \n" + root + "\n", "o\n\n" + root + "\n",
                "o\n99999999999999999999\n" + root + "\n", "o\n9223372036854775808\n" + root + "\n",
                "o\n1\nAAAA\n", "o\n1\n" + root.replace("=", "") + "\n", "o\n1\n" + root.replace("2I=", "2J=") + "\n",
                "o\n1\n" + root + "\n\n", "o\n1\n" + root + "\next\n\n", "o\n1\n" + root + "\r\n",
                "o\n1\n" + root + "\n\tx\n")) {
            assertThrows(MalformedInput.class, () -> Checkpoint.parse(body), body);
        }
        assertEquals(Long.MAX_VALUE, Checkpoint.parse("o\n9223372036854775807\n" + root + "\n").size());
    }
}
