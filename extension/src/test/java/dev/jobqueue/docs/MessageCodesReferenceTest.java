package dev.jobqueue.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The message reference, {@code docs/reference/messages.md}, has a section for every code jobqueue's messages use,
 * and none for a code they do not: every message comes from {@code Messages}, each starting with its code.
 */
class MessageCodesReferenceTest {

    static final Path PAGE = Path.of("..", "docs", "reference", "messages.md");
    private static final Path MESSAGES = Path.of("src", "main", "java", "dev", "jobqueue", "internal", "Messages.java");

    @Test
    void the_reference_has_a_section_for_every_code_the_messages_use_and_no_other() throws IOException {
        assertEquals(codes(Files.readString(MESSAGES), "\"(JQ\\d{3}):"), codes(Files.readString(PAGE),
                "(?m)^### (JQ\\d{3})$"), "the codes of " + PAGE + " against those of " + MESSAGES);
    }

    static Set<String> codes(String text, String pattern) {
        Set<String> codes = new TreeSet<>();
        Matcher code = Pattern.compile(pattern).matcher(text);
        while (code.find()) {
            codes.add(code.group(1));
        }
        return codes;
    }
}
