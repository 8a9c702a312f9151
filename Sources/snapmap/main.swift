import Foundation
import MapEngine

HeapTuning.keepFrameBlocks()
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
