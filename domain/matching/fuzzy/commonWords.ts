// Everyday words. A domain label or path word that is one of these is far more
// likely to mean the word than a shop: nice.com is not a misspelt Nike, a
// path about hiking boots is not a link to Boots, next.org is not Next.
// Brands that are everyday words (Next, Very, Target, Boots, Ring, On, Gap...)
// are therefore only ever matched by their exact domain, never guessed.
// Not a dictionary: the frequent English words plus the shopping, web and
// place words that show up in URLs. A word missing here only costs precision
// when it is also one edit from a brand.
const WORDS = `
a about above after again air all also am an and any app apps are area art as ask at auto away baby back bad bag
bank banks base be bear beat bed bee been before being bell best better big bike bikes bird black blog blue board boat
boats body book books boot boots born both box boy brand bright brown build bus but buy by cake call came camp can
canvas cap car card care cars case cash cat catch cats center centre chair change cheap check city class clean clear
click close cloud club coach code coffee cold come cook cool copper core cost could country cover craft cup cut daily
dark data date day days dead deal deals dear deep design desk dev did digital dine direct do doc docs does dog dogs
doing done door down draw dream dress drink drive drop dry each early earth east easy eat echo edge else end energy
even ever every eye face fact fair fall family far farm fashion fast fat feed feel fern few field file film find fine
fire first fish fit five fix flat flow fly food foot for form forum four free fresh friday from front fruit full fun
fund game games garden gas gate gear get gift girl give glass glow go god gold golf good got great green grid group
grow guide hair half hall hand happy hard has hat hatch have he head health hear heart heat help her here hero high
hill him his hit hold home honey hope horse host hot hotel hotels hour house how hub i ice idea if in info ink inn
into iron is it item its job jobs join joy just keep key kid kids kind king kit kitchen know lab labs lake land large
last late law lead learn leather left less let life light like line link list little live living loan local lock
logo long look loop lot love low luck mac made mail main make mall man many map mark market mass master may me meal
media meet men menu met mike mind mine mix mobile mode monday money moon more most mother move much music my name
near need nest net new news next nice night nine no north not note now oak of off offer office oil old on one online
only open or order other our out outlet over own pack page paint paper park part party pass past path paws pay peak
pen people pet pets phone photo pick pine pixel place plan plant play plaza plus point pool post power press price
pro pure put quick race radio rain ready real red rest rich ride right ring rise river road rock room root rose run
running safe sage sale salt same save say school sea seat see seed seeds sell send set seven shark shine ship shoe
shoes shop shopping shops show side sign silk silver simple site six size skin sky sleep slow small smart snow so
soft solar some son song sound south space speed sport sports spring square star start state stay step stock stone
store stores story street study style sun sunday super supply sure sweet table take talk tea team tech ten test text
than that the their them then there these they thing think this three thread time tiny tip to today too tool tools
top tour town toy toys track trade trail travel tree trek trip true try tuesday turn two under up urban us use user
van very view village wall want war warm was watch water wave way we wear web week well were west what when where
which white who why wide wiki wild will win wind window wine winter wise with wood word words work world would write
yard year yellow yes yoga you young your zone zoo
apple booking chew converse curry notion zorro crocus ninja razor saturn specialized target wiggle
`

export const COMMON_WORDS: ReadonlySet<string> = new Set(WORDS.split(/\s+/).filter((word) => word.length > 0))

export const isCommonWord = (word: string): boolean => COMMON_WORDS.has(word)
