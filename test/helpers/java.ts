// The Java projects of the tests that run Maven and Gradle offline (test/integration/init.test.ts,
// test/e2e/toolchains.test.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';

// Maven Central is unreachable from these machines. Debian's packages stand in for it, in
// /usr/share/maven-repo (readable by the checks' user): the plugins `mvn test` runs by default
// (resources, compiler, surefire 2.22; their poms relocate Maven 3.8's default plugin versions to the
// packaged ones, so the pom names no plugin) with JUnit 5, and JUnit 4 for Debian's Gradle 4.4.1 (old,
// but patched by Debian to run on its Java 17; it predates Gradle's JUnit 5 support). Each fixture
// names that folder as its repository, Maven through .mvn/settings.xml, Gradle in build.gradle: the
// test machine's stand-in for Central, not init's output. The checks resolve from it into their own
// fresh HOME every round, as a real project downloads from Central. Time: each check starts a JVM or
// two, and Debian's surefire 2.22 idles up to 10 s after the tests' JVM ends (until its next ping to
// it): most of the Maven test's minute, four runs of `mvn` (baseline, the fix, two replays).
export const DEBIAN_REPO = '/usr/share/maven-repo';
export const inDebianRepo = (...paths: string[]) => paths.every((p) => existsSync(join(DEBIAN_REPO, p)));
export const JDK = existsSync('/usr/bin/javac');
export const MAVEN =
  JDK &&
  existsSync('/usr/bin/mvn') &&
  inDebianRepo(
    'org/apache/maven/plugins/maven-resources-plugin/2.6',
    'org/apache/maven/plugins/maven-compiler-plugin/3.1',
    'org/apache/maven/plugins/maven-surefire-plugin/2.12.4',
    'org/apache/maven/surefire/surefire-junit-platform',
    'org/junit/jupiter/junit-jupiter/5.9.2',
  );
export const GRADLE = JDK && existsSync('/usr/bin/gradle') && inDebianRepo('junit/junit/4.13.2');

export const CALC_JAVA = 'package com.example.calc;\n\npublic class Calc {\n    public static int add(int a, int b) {\n        return a - b;\n    }\n}\n';
export const CALC_JAVA_PATH = 'src/main/java/com/example/calc/Calc.java';
export const calcTestJava = (junit: 4 | 5) => `package com.example.calc;

import static ${junit === 5 ? 'org.junit.jupiter.api.Assertions' : 'org.junit.Assert'}.assertEquals;

import ${junit === 5 ? 'org.junit.jupiter.api.Test' : 'org.junit.Test'};

public class CalcTest {
    @Test
    public void adds() {
        assertEquals(5, Calc.add(2, 3));
    }

    @Test
    public void addsZero() {
        assertEquals(4, Calc.add(4, 0));
    }
}
`;
export const POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>calc</artifactId>
  <version>1.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter</artifactId>
      <version>5.9.2</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
</project>
`;
export const MAVEN_MIRROR = `<settings>
  <mirrors>
    <mirror>
      <id>debian</id>
      <mirrorOf>*</mirrorOf>
      <url>file://${DEBIAN_REPO}</url>
    </mirror>
  </mirrors>
</settings>
`;
/** build.gradle of the Gradle fixture: JUnit 4 from Debian's repository. */
export const BUILD_GRADLE = `plugins {
    id 'java'
}

repositories {
    maven { url 'file://${DEBIAN_REPO}' }
}

dependencies {
    testImplementation 'junit:junit:4.13.2'
}
`;
